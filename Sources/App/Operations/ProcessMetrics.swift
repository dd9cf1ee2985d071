import Foundation
import Observability
import POSIX
import Synchronization

/// The standard `process_*` metrics and `photoscroll_build_info`, read from `/proc` when scraped.
///
/// Each read is a few small syscalls, so doing it per scrape costs less than a background timer
/// and is never stale.
final class ProcessMetrics: Sendable {
    private let residentMemory: Gauge
    private let virtualMemory: Gauge
    private let openDescriptors: Gauge
    private let maxDescriptors: Gauge
    private let cpuSeconds: Counter
    private let threads: Gauge
    /// Serialises updates, so two scrapes at once never add the same CPU time twice.
    private let updating = Mutex<Void>(())

    init(metrics: MetricsRegistry) {
        residentMemory = metrics.gauge("process_resident_memory_bytes", help: "Resident memory size in bytes.")
        virtualMemory = metrics.gauge("process_virtual_memory_bytes", help: "Virtual memory size in bytes.")
        openDescriptors = metrics.gauge("process_open_fds", help: "Number of open file descriptors.")
        maxDescriptors = metrics.gauge("process_max_fds", help: "Maximum number of open file descriptors.")
        cpuSeconds = metrics.counter("process_cpu_seconds_total", help: "Total user and system CPU time spent in seconds.")
        threads = metrics.gauge("process_threads", help: "Number of OS threads in the process.")
        let startTime = metrics.gauge("process_start_time_seconds", help: "Start time of the process since the Unix epoch in seconds.")
        startTime.set(Self.startTime() ?? Date().timeIntervalSince1970)
        let buildInfo = metrics.gauge("photoscroll_build_info", help: "Always 1; the labels say which build is running.")
        buildInfo.set(1, [("version", BuildInfo.version), ("swift", BuildInfo.swiftVersion)])
        update()
    }

    /// Reads the current values into the gauges.
    func update() {
        updating.withLock { _ in
            let pageSize = Double(System.pageSize)
            if let statm = Self.read("/proc/self/statm")?.split(separator: " "), statm.count >= 2,
               let size = Double(statm[0]), let resident = Double(statm[1]) {
                virtualMemory.set(size * pageSize)
                residentMemory.set(resident * pageSize)
            }
            if let count = Self.openDescriptorCount() { openDescriptors.set(Double(count)) }
            if let limit = System.openFileLimit() { maxDescriptors.set(Double(limit)) }
            if let used = System.processorSeconds() {
                let total = used.user + used.system
                let delta = total - cpuSeconds.value()
                if delta > 0 { cpuSeconds.increment(by: delta) }
            }
            if let fields = Self.statFields(), fields.count > 17, let count = Double(fields[17]) {
                threads.set(count)
            }
        }
    }

    /// Entries of `/proc/self/fd`, not counting the descriptor used to list them.
    static func openDescriptorCount() -> Int? {
        guard let directory = try? FileDescriptor.open("/proc/self/fd", OpenFlags.readOnly | OpenFlags.directory) else { return nil }
        defer { directory.close() }
        var count = 0
        guard (try? directory.forEachEntry { entry in
            if !entry.isHidden { count += 1 }
            return true
        }) != nil else { return nil }
        return max(0, count - 1)
    }

    /// Fields of `/proc/self/stat` after the command name (which may hold spaces), so that
    /// index 0 is the state, field 3 of proc(5).
    static func statFields() -> [Substring]? {
        guard let stat = read("/proc/self/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// Boot time plus the process's start in clock ticks since boot.
    static func startTime() -> Double? {
        guard let fields = statFields(), fields.count > 19, let ticks = Double(fields[19]),
              let stat = read("/proc/stat"),
              let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
              let boot = Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) else { return nil }
        return boot + ticks / Double(System.clockTicksPerSecond)
    }

    private static func read(_ path: String) -> String? {
        // /proc files report size 0, so read them whole rather than by their stat size.
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
