import POSIX

/// Background threads of the library yield the processor to request threads.
enum BackgroundThread {
    /// Lowers the calling thread's scheduling priority (nice 10): on-demand tiles for what people
    /// are looking at are rendered by request threads at the normal priority, so they are served
    /// first even while every core builds pyramids. Linux keeps a nice value per thread, and
    /// `who` 0 names the calling thread, so the rest of the process keeps its own.
    static func lowerPriority() {
        System.setCallingThreadNice(10)
    }
}
