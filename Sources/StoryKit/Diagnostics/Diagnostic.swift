/// A problem found in the user's input: a story file, a step definition or a
/// command-line argument.
///
/// Every stage turns its own reasons into diagnostics; they are rendered in
/// one place (`Diagnostic+Rendering.swift`), compiler-style.
public struct Diagnostic: Error, Hashable, Sendable, Codable {
    /// How bad a diagnostic is.
    public enum Severity: String, Sendable, Codable {
        /// The input was rejected; the run exits with status 2.
        case error
        /// The input was accepted, but probably not as the user meant it.
        case warning
        /// Extra information attached to another diagnostic.
        case note
    }

    /// Where the problem is, if it has a place.
    public var location: SourceLocation?
    /// How bad the problem is.
    public var severity: Severity
    /// What is wrong, in one sentence.
    public var problem: String
    /// What to do about it, if there is advice to give.
    public var help: String?
    /// Further places that explain the problem, each with its own message.
    public var notes: [Note]
    /// The text of the line the location points at, shown under the message.
    public var sourceLine: String?

    /// A further place that explains a diagnostic.
    public struct Note: Hashable, Sendable, Codable {
        /// Where to look.
        public var location: SourceLocation?
        /// What is there.
        public var message: String

        /// Creates a note.
        public init(location: SourceLocation?, message: String) {
            self.location = location
            self.message = message
        }
    }

    /// Creates a diagnostic.
    public init(
        _ severity: Severity = .error, at location: SourceLocation?, problem: String,
        help: String? = nil, notes: [Note] = [], sourceLine: String? = nil
    ) {
        self.sourceLine = sourceLine
        self.location = location
        self.severity = severity
        self.problem = problem
        self.help = help
        self.notes = notes
    }

    /// Whether the diagnostic rejects input.
    public var isError: Bool { severity == .error }
}
