/// A failed expectation in a step.
public struct ExpectationFailure: LocatedError, CustomStringConvertible {
    /// What was expected and what happened.
    public var message: String
    /// Where the expectation is written.
    public var location: SourceLocation?

    /// Creates a failure.
    public init(_ message: String, location: SourceLocation?) {
        self.message = message
        self.location = location
    }

    public var description: String { message }
}

private func failure(_ what: String, _ message: String, _ file: String, _ line: Int) -> ExpectationFailure {
    ExpectationFailure(message.isEmpty ? what : "\(message): \(what)", location: SourceLocation(file: file, line: line))
}

/// Fails the step unless a condition is true.
public func expect(
    _ condition: Bool, _ message: @autoclosure () -> String = "", file: String = #filePath, line: Int = #line
) throws {
    if !condition {
        let message = message()
        throw ExpectationFailure(message.isEmpty ? "expected true, got false" : message, location: SourceLocation(file: file, line: line))
    }
}

/// Fails the step unless a condition is false.
public func expectFalse(
    _ condition: Bool, _ message: @autoclosure () -> String = "", file: String = #filePath, line: Int = #line
) throws {
    if condition {
        let message = message()
        throw ExpectationFailure(message.isEmpty ? "expected false, got true" : message, location: SourceLocation(file: file, line: line))
    }
}

/// Fails the step unless two values are equal.
public func expectEqual<T: Equatable>(
    _ actual: T, _ expected: T, _ message: @autoclosure () -> String = "",
    file: String = #filePath, line: Int = #line
) throws {
    if actual != expected {
        throw failure("expected \(describe(expected)), got \(describe(actual))", message(), file, line)
    }
}

/// Fails the step unless a value is nil.
public func expectNil<T>(
    _ value: T?, _ message: @autoclosure () -> String = "", file: String = #filePath, line: Int = #line
) throws {
    if let value { throw failure("expected nil, got \(describe(value))", message(), file, line) }
}

/// Fails the step when a value is nil; returns the value otherwise.
@discardableResult
public func expectNotNil<T>(
    _ value: T?, _ message: @autoclosure () -> String = "", file: String = #filePath, line: Int = #line
) throws -> T {
    guard let value else { throw failure("expected a value, got nil", message(), file, line) }
    return value
}

/// Fails the step.
public func fail(_ message: String, file: String = #filePath, line: Int = #line) throws -> Never {
    throw ExpectationFailure(message, location: SourceLocation(file: file, line: line))
}

/// A value as a failure message shows it: strings quoted, enums with raw
/// values by their raw value (`X`, not `x`).
private func describe<T>(_ value: T) -> String {
    if value is any StringProtocol { return "\"\(value)\"" }
    if let raw = value as? any RawRepresentable { return String(describing: raw.rawValue) }
    return String(describing: value)
}
