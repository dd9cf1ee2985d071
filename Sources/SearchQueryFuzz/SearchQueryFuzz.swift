import Search

#if FUZZING
/// libFuzzer's entry: every input through the search query parser's checks
/// (`SearchQueryFuzzing`). Built by `make fuzz` with `-sanitize=fuzzer,address -DFUZZING`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    SearchQueryFuzzing.check(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// libFuzzer's driver, called from our own entry point: SwiftPM links an executable's entry
/// as `SearchQueryFuzz_main` and points `main` at it, so libFuzzer's `main` is not used.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

@_cdecl("SearchQueryFuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
        SearchQueryFuzzing.check(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
}
#else
import Foundation

/// Without the fuzzer: replays files (or folders of them) through the same checks, so a crash
/// the fuzzer found can be rerun in an ordinary build. `SearchQueryFuzz PATH…`.
@main
struct SearchQueryFuzzReplay {
    static func main() {
        var files: [String] = []
        for path in CommandLine.arguments.dropFirst() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                files += ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            data.withUnsafeBytes { SearchQueryFuzzing.check($0) }
        }
        print("\(files.count) inputs replayed; every check held.")
    }
}
#endif
