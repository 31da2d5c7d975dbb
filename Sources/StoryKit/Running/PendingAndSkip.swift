/// Raised by ``pending(_:file:line:)``: the step is not written yet.
///
/// The step is *pending*, the rest of the story is skipped (its after hooks
/// still run), and the story is pending: a status of its own in every
/// report, which fails the run under `--strict`.
public struct PendingStep: LocatedError, CustomStringConvertible {
    /// Why the step is pending, as the step gave it (may be empty).
    public var reason: String
    /// Where `pending` was called.
    public var location: SourceLocation?

    /// Creates a pending signal.
    public init(_ reason: String, location: SourceLocation?) {
        self.reason = reason
        self.location = location
    }

    public var description: String { reason.isEmpty ? "pending" : reason }
}

/// Raised by ``skip(_:file:line:)``: the story does not apply here.
///
/// From a step, that step and the rest are skipped; from a before hook, the
/// other before hooks and every step are skipped. After hooks still run.
/// The story is *skipped* with the reason, and a skipped story never fails
/// the run.
public struct SkippedStory: LocatedError, CustomStringConvertible {
    /// Why the story is skipped, as the step or hook gave it (may be empty).
    public var reason: String
    /// Where `skip` was called.
    public var location: SourceLocation?

    /// Creates a skip signal.
    public init(_ reason: String, location: SourceLocation?) {
        self.reason = reason
        self.location = location
    }

    public var description: String { reason.isEmpty ? "skipped" : reason }
}

/// Marks the running step pending: not written yet (Cucumber's `pending`).
///
/// ```swift
/// step.pattern("the price of {string} is shown") { (steps: PriceSteps, item: String) in
///     try pending("waiting for the pricing API")
/// }
/// ```
/// The rest of the story is skipped and the story is pending; `--strict`
/// makes a pending story fail the run (exit 1).
public func pending(_ reason: String = "", file: String = #filePath, line: Int = #line) throws -> Never {
    throw PendingStep(reason, location: SourceLocation(file: file, line: line))
}

/// Skips the running story with a reason, from a step or a before hook.
///
/// ```swift
/// step.before(tags: "@macos") { _ in
///     #if !os(macOS)
///     try skip("only on macOS")
///     #endif
/// }
/// ```
/// The step (or hook) that calls it and every step after it are skipped;
/// after hooks still run. A skipped story does not fail the run.
public func skip(_ reason: String = "", file: String = #filePath, line: Int = #line) throws -> Never {
    throw SkippedStory(reason, location: SourceLocation(file: file, line: line))
}
