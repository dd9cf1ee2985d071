/// Facts about the machine the server runs on.
public enum System {
    /// Online processor cores.
    public static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

#if canImport(Glibc)
import Glibc
#endif
