import POSIX

#if FUZZING
/// libFuzzer's entry: every input built into a hostile photos folder and walked
/// (`WalkChecks`). Built by `make fuzz` with `-sanitize=fuzzer,address -DFUZZING`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    WalkChecks.check(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// libFuzzer's driver, called from our own entry point: SwiftPM links an executable's entry
/// as `FolderWalkFuzz_main` and points `main` at it, so libFuzzer's `main` is not used.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

@_cdecl("FolderWalkFuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
        WalkChecks.check(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
}
#else
/// Without the fuzzer: replays files (or folders of them) through the same checks, so a crash
/// the fuzzer found can be rerun in an ordinary build. `FolderWalkFuzz [--show] PATH…`; `--show`
/// prints the tree each input builds.
@main
struct FolderWalkFuzzReplay {
    static func main() {
        var files: [String] = []
        let showing = CommandLine.arguments.contains("--show")
        for path in CommandLine.arguments.dropFirst() where path != "--show" {
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
            bytes.withUnsafeBytes { WalkChecks.check($0, showing: showing) }
        }
        print("\(files.count) inputs replayed; every check held.")
    }
}
#endif
