/// `photoscroll health [--url URL]`: exit 0 when the server answers GET /healthz with 200.
public enum HealthCommand {
    public static func run(url: String, timeoutSeconds: Double) -> Int32 {
        print("health: not built yet")
        return 1
    }
}
