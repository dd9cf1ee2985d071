import POSIX

/// What every fuzzer here shares: libFuzzer's entry and driver in a fuzzing build, and in an
/// ordinary build the replay of saved inputs through the same check. A fuzzer is then its
/// check and the two lines that name it (see `HTTPFuzz`).
public enum FuzzEntry {
    /// The check each input goes through; it traps on a broken expectation.
    public typealias Check = (UnsafeRawBufferPointer) -> Void

    /// The check of this process, set once before libFuzzer or the replay starts.
    nonisolated(unsafe) static var check: Check = { _ in }

#if FUZZING
    /// Runs libFuzzer over `check`. An executable's `main` is linked as `<Target>_main`, so a
    /// fuzzer's own entry calls this and libFuzzer's `main` is not used.
    public static func run(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, check: @escaping Check) -> Int32 {
        Self.check = check
        var count = argc
        var arguments = argv
        return LLVMFuzzerRunDriver(&count, &arguments, fuzzOneInput)
    }
#endif

    /// Replays files, or every file of folders given, through `check`, so that a crash the
    /// fuzzer found can be rerun in an ordinary build; says how many were replayed.
    public static func replay(_ paths: some Sequence<String>, check: Check) {
        var files: [String] = []
        for path in paths {
            guard let status = try? fileStatus(path) else { continue }
            guard status.fileKind == .directory, let folder = try? FileDescriptor.open(path, OpenFlags.readOnly | OpenFlags.directory) else {
                files.append(path)
                continue
            }
            var names: [String] = []
            try? folder.forEachEntry { entry in
                if let name = entry.text { names.append(name) }
                return true
            }
            folder.close()
            files += names.sorted().map { path + "/" + $0 }
        }
        for file in files {
            guard let bytes = FileDescriptor.contents(ofFile: file) else { continue }
            bytes.withUnsafeBytes { check($0) }
        }
        print("\(files.count) inputs replayed; every check held.")
    }
}

#if FUZZING
/// libFuzzer's entry for one input: the process's check.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzEntry.check(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32
#endif
