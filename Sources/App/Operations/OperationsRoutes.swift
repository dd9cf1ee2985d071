import HTTP
import Observability
import Synchronization

/// `/healthz`, `/readyz` and `/metrics`: what orchestrators and scrapers ask a running server.
///
/// Liveness and readiness are separate on purpose: a server still loading its catalog is alive
/// (do not restart it) but not ready (do not send it traffic yet).
public enum OperationsRoutes {
    /// The media type Prometheus expects for the text exposition format.
    public static let metricsContentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Registers the three routes.
    ///
    /// - Parameters:
    ///   - metrics: the registry every layer records into; `/metrics` renders it.
    ///   - isReady: whether the catalog is loaded; `/readyz` answers 503 until it is.
    ///   - isDatabaseReachable: whether the database answers and its changes are heard; `/readyz`
    ///     answers 503 while it does not (tiles and the page are still served meanwhile).
    ///   - isDraining: whether shutdown has begun; `/healthz` and `/readyz` then answer 503 so a
    ///     load balancer stops sending work while in-flight requests finish.
    ///   - workload: every worker lane's load now, for `/metrics` and `/readyz`.
    ///   - saturation: the lanes falling behind (their oldest queued job has waited too long).
    ///     `/readyz` names them in its detail and still answers 200 (`"status":"busy"`): one
    ///     abusive client keeping a lane busy must not take every replica out of a load
    ///     balancer. Only a catalog lane that has started no job for `stallSeconds` while jobs
    ///     wait, so that listings truly cannot be answered, makes it 503.
    ///   - degradation: why the server works but not fully (a folder of photos cannot be
    ///     reached), or nil. `/readyz` then answers 200 `{"status":"degraded","detail":…}`: what
    ///     is there is still served, so traffic should keep coming.
    ///   - progress: how far the ingest's stages are while photos are still being built, or nil;
    ///     `/readyz` then says so in its `detail` (still ready: every photo is served meanwhile).
    public static func register(
        on router: inout Router,
        metrics: MetricsRegistry,
        isReady: @escaping @Sendable () -> Bool,
        isDatabaseReachable: @escaping @Sendable () -> Bool = { true },
        isDraining: @escaping @Sendable () -> Bool = { false },
        workload: @escaping @Sendable () -> [LaneLoad] = { [] },
        saturation: @escaping @Sendable () -> [LaneLoad] = { [] },
        degradation: @escaping @Sendable () -> String? = { nil },
        stallSeconds: Double = 2,
        progress: @escaping @Sendable () -> String? = { nil },
        probeAccess: (any AccessRule)? = nil,
        metricsAccess: (any AccessRule)? = nil
    ) {
        let process = ProcessMetrics(metrics: metrics)
        let queued = metrics.gauge("photoscroll_worker_queue_length", help: "Requests waiting for a worker thread, by lane.")
        let busy = metrics.gauge("photoscroll_worker_busy_threads", help: "Worker threads at work, by lane.")
        let waited = metrics.gauge("photoscroll_worker_oldest_wait_seconds", help: "How long the oldest waiting request of a lane has waited.")
        let stalled = metrics.gauge("photoscroll_worker_stalled_seconds",
                                    help: "How long requests of a lane have waited while it started none (every thread stuck).")
        let cost = metrics.gauge("photoscroll_worker_cost_in_flight", help: "Cost of the work running in a lane (pixels, for renders).")
        let budget = metrics.gauge("photoscroll_worker_cost_budget", help: "Most cost a lane runs at once (pixels, for renders).")
        let refused = metrics.counter("photoscroll_worker_refused_total",
                                      help: "Requests a lane refused, by reason: client (429, too many waiting for one client), lane (503, too many waiting) or wait (503, waited too long).")
        let withdrawn = metrics.counter("photoscroll_worker_withdrawn_total", help: "Queued requests dropped because their client went away.")
        let counted = LaneCounts()

        router.get("/healthz", execution: .inline, access: probeAccess) { _ in
            try isDraining() ? unavailable("The server is shutting down.") : statusResponse("ok")
        }

        router.get("/readyz", execution: .inline, access: probeAccess) { _ in
            if isDraining() { return unavailable("The server is shutting down.") }
            guard isReady() else { return unavailable("The photo catalog is still loading; try again in a moment.") }
            guard isDatabaseReachable() else {
                return unavailable("The database cannot be reached; tiles already built are still served. Reconnecting.")
            }
            if let listings = workload().first(where: { $0.lane == WorkLanes.catalog }), listings.stalledSeconds >= stallSeconds {
                return unavailable("Photo listings cannot be answered: \(listings.queued) waiting, and none started for "
                                   + "\(String(format: "%.1f", listings.stalledSeconds)) s.")
            }
            let behind = saturation()
            let busy = behind.isEmpty ? nil : "Busy: " + behind.map {
                "\($0.lane.name) (\($0.queued) waiting, the oldest for \(String(format: "%.1f", $0.oldestWaitSeconds)) s)"
            }.joined(separator: ", ") + "; everything else is answered as usual."
            let ingest = progress()
            if let detail = degradation() {
                return try statusResponse("degraded", detail: [detail, busy, ingest].compactMap { $0 }.joined(separator: " "))
            }
            if let busy { return try statusResponse("busy", detail: [busy, ingest].compactMap { $0 }.joined(separator: " ")) }
            return try statusResponse("ready", detail: ingest)
        }

        router.get("/metrics", execution: .inline, access: metricsAccess) { _ in
            process.update()
            for load in workload() {
                let lane = [("lane", load.lane.name)]
                queued.set(Double(load.queued), lane)
                busy.set(Double(load.running), lane)
                waited.set(load.oldestWaitSeconds, lane)
                stalled.set(load.stalledSeconds, lane)
                cost.set(Double(load.costInFlight), lane)
                if let most = load.maxCostInFlight { budget.set(Double(most), lane) }
                let (client, full, gone, late) = counted.advance(load)
                if client > 0 { refused.increment(by: Double(client), [("lane", load.lane.name), ("reason", "client")]) }
                if full > 0 { refused.increment(by: Double(full), [("lane", load.lane.name), ("reason", "lane")]) }
                if late > 0 { refused.increment(by: Double(late), [("lane", load.lane.name), ("reason", "wait")]) }
                if gone > 0 { withdrawn.increment(by: Double(gone), lane) }
            }
            var headers = HTTPHeaders()
            headers.set("Cache-Control", "no-store")
            return HTTPResponse(contentType: metricsContentType, bytes: Array(metrics.render().utf8), headers: headers)
        }
    }

    /// The pool's running totals of refusals and withdrawals, turned into increments of the counters.
    final class LaneCounts: Sendable {
        private let seen = Mutex<[WorkLane: (Int, Int, Int, Int)]>([:])

        func advance(_ load: LaneLoad) -> (client: Int, lane: Int, withdrawn: Int, expired: Int) {
            seen.withLock { seen in
                let before = seen[load.lane] ?? (0, 0, 0, 0)
                seen[load.lane] = (load.refusedForClient, load.refusedForLane, load.withdrawn, load.expired)
                return (max(0, load.refusedForClient - before.0), max(0, load.refusedForLane - before.1),
                        max(0, load.withdrawn - before.2), max(0, load.expired - before.3))
            }
        }
    }

    /// 503 problem+json that no cache keeps, with a hint to retry soon.
    static func unavailable(_ detail: String) -> HTTPResponse {
        .problem(.serviceUnavailable, detail: detail, headers: ["Cache-Control": "no-store", "Retry-After": "1"])
    }

    /// `{"status":"…"}` (and `"detail"` when there is one), never cached: a probe must see the
    /// server as it is now.
    struct Status: Encodable {
        let status: String
        let detail: String?
    }

    static func statusResponse(_ status: String, detail: String? = nil) throws -> HTTPResponse {
        try .json(Status(status: status, detail: detail), headers: ["Cache-Control": "no-store"])
    }
}
