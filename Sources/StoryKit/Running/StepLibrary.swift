import Synchronization

/// A step class shipped as a library for others' stories (`ProcessSteps`,
/// `HTTPSteps`, `StubServiceSteps`): its definitions that no story used
/// are not listed after a run or by `check` (they are noise to a user who
/// did not write them) unless `--show-library-unused` asks.
///
/// A library's wording may be the user's own (`the conversion service is
/// running`): then both match, and the run reports the step as ambiguous,
/// naming both patterns. List the library with ``prefixed(_:)`` to keep its
/// steps apart from the user's.
public protocol StepLibrary: StepDefinitions {}

extension StepLibrary {
    /// The library, with every one of its step patterns starting with
    /// `prefix`, for the list of step classes a run registers:
    ///
    /// ```swift
    /// StoryRun.main(steps: [BankSteps.self, HTTPSteps.prefixed("api: ")])
    /// ```
    ///
    /// A story then writes `When api: I send GET /rates`; `check`, the
    /// language server and every message show the prefixed patterns. The
    /// prefix is matched as written (case-insensitively in a regex, as the
    /// library's patterns are). It holds for every registration in the
    /// process from then on (a worker process lists the same classes, and
    /// so gets the same prefix); list the library once.
    public static func prefixed(_ prefix: String) -> any StepDefinitions.Type {
        StepLibraryPrefix.prefixes.withLock { $0[ObjectIdentifier(Self.self)] = prefix }
        return Self.self
    }
}

/// The prefixes ``StepLibrary/prefixed(_:)`` gave libraries, and how a
/// pattern takes one.
enum StepLibraryPrefix {
    static let prefixes = Mutex<[ObjectIdentifier: String]>([:])

    /// The prefix given to a step class; nil for none.
    static func prefix(for type: Any.Type) -> String? {
        prefixes.withLock { $0.isEmpty ? nil : $0[ObjectIdentifier(type)] }
    }

    /// A regex that matches what `pattern` matches, after `prefix` at the
    /// start of the step's text: `^` + prefix + the rest of an anchored
    /// pattern, or the prefix and then the pattern anywhere after it.
    static func regex(_ pattern: String, prefix: String) -> String {
        let literal = prefix.map { "\\^$.|?*+()[]{}".contains($0) ? "\\\($0)" : String($0) }.joined()
        if pattern.hasPrefix("^") { return "^" + literal + pattern.dropFirst() }
        return "^" + literal + ".*?(?:" + pattern + ")"
    }

    /// A Cucumber Expression that starts with `prefix` as literal text.
    static func expression(_ expression: String, prefix: String) -> String {
        prefix.map { "(){}/\\".contains($0) ? "\\\($0)" : String($0) }.joined() + expression
    }
}
