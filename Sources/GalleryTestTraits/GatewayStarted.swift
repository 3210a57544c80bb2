import GalleryTestSupport
import Testing

/// Starts the process's RADOS Gateway before a suite's tests run, without holding a thread while it
/// starts (``RadosGateway/started()``): the tests then find it running.
public struct GatewayStarted: SuiteTrait, TestScoping {
    public var isRecursive: Bool { false }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        _ = try await RadosGateway.started()
        try await function()
    }
}

extension Trait where Self == GatewayStarted {
    /// The gateway is running before the suite's tests start.
    public static var gatewayStarted: Self { Self() }
}
