import Foundation

/// Waits until a condition holds, checking it every `interval` seconds, and
/// fails the step when it still does not hold after `timeout` seconds (as
/// UISpec's `timeout:` does).
///
/// ```swift
/// try await waitUntil(timeout: 2) { server.isReady }
/// ```
public func waitUntil(
    timeout: Double = 5, interval: Double = 0.05, _ message: @autoclosure () -> String = "",
    file: String = #filePath, line: Int = #line,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try await condition() { return }
        guard Date() < deadline else {
            let text = message()
            throw ExpectationFailure(
                (text.isEmpty ? "" : "\(text): ") + "the condition did not hold within \(timeout) s",
                location: SourceLocation(file: file, line: line))
        }
        try await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
    }
}
