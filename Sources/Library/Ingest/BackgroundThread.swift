private import CShims

/// Background threads of the library yield the processor to request threads.
enum BackgroundThread {
    /// Lowers the calling thread's scheduling priority (nice 10): on-demand tiles for what people
    /// are looking at are rendered by request threads at the normal priority, so they are served
    /// first even while every core builds pyramids.
    static func lowerPriority() {
        _ = cshims_set_thread_niceness(10)
    }
}
