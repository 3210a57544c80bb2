/// Redraws a progress display ten times a second, from a task the command cancels when the work ends.
enum ProgressTicker {
    static func start(_ tick: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                tick()
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }
}
