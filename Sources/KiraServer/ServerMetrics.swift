#if Server
import Metrics
import class Prometheus.PrometheusCollectorRegistry
import struct Prometheus.PrometheusMetricsFactory

/// What the server counts, exported at `/metrics` in Prometheus' text format.
///
/// Each server has a registry of its own (the metrics are made with its factory, not through the
/// process-wide `MetricsSystem`), so several servers in one process, as in the tests, never mix
/// their counts.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    let renders: Counter
    let renderDuration: Metrics.Timer
    let cacheHits: Counter
    let cacheMisses: Counter
    /// Requests that joined a render already under way for the same frame (single flight).
    let cacheJoins: Counter
    let cacheBytes: Gauge
    let inFlight: Meter
    /// Renders waiting for a slot or memory.
    let waiting: Meter
    let textureBytes: Gauge

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        let seconds: [Duration] = [.milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                                   .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10)]
        factory.defaultDurationHistogramBuckets = seconds
        self.factory = factory
        renders = Counter(label: "kira_renders_total", factory: factory)
        renderDuration = Metrics.Timer(label: "kira_render_duration_seconds", factory: factory)
        cacheHits = Counter(label: "kira_cache_hits_total", factory: factory)
        cacheMisses = Counter(label: "kira_cache_misses_total", factory: factory)
        cacheJoins = Counter(label: "kira_cache_joins_total", factory: factory)
        cacheBytes = Gauge(label: "kira_cache_bytes", factory: factory)
        inFlight = Meter(label: "kira_renders_in_flight", factory: factory)
        waiting = Meter(label: "kira_renders_waiting", factory: factory)
        textureBytes = Gauge(label: "kira_texture_bytes", factory: factory)
    }

    /// A request answered: counted and timed by route and status.
    func recordRequest(route: String, status: Int, duration: Duration) {
        let dimensions = [("route", route), ("status", String(status))]
        Counter(label: "kira_http_requests_total", dimensions: dimensions, factory: factory).increment()
        Metrics.Timer(label: "kira_http_request_duration_seconds", dimensions: dimensions, factory: factory).record(duration: duration)
    }

    /// A request refused for lack of capacity (`overloaded`) or time (`deadline`).
    func recordRejection(_ reason: String) {
        Counter(label: "kira_rejected_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    /// The text `/metrics` answers.
    var exposition: [UInt8] { registry.emitToBuffer() }
}
#endif
