/// A pattern registered with the closure that runs the steps it matches.
///
/// A class, so matches share one definition instead of copying its fields.
public final class StepDefinition: Sendable, Identifiable {
    /// The definition's position in registration order, from 0.
    public let id: Int
    /// The pattern as written.
    public let pattern: String
    /// Whether the pattern is a regex or a Cucumber Expression.
    public let syntax: Syntax
    /// Where the definition was registered in Swift.
    public let location: SourceLocation
    /// The step class the definition belongs to.
    public let ownerName: String
    /// Whether its class is a ``StepLibrary``.
    public let isFromLibrary: Bool
    /// The parameter types of the closure, after the step class.
    public var parameterNames: [String] { parameterTypes.map { $0.stepArgumentName } }
    /// The types themselves: their names are written out only when asked
    /// for, since that is slow and a run rarely needs them.
    let parameterTypes: [any StepArgument.Type]

    let matcher: StepMatcher
    let invoke: Invocation
    /// Words any text the pattern matches holds, for the index; nil until
    /// the index asks (``StepMatcher/requiredWords``), so registering costs
    /// nothing in a process that never matches.
    let requiredWords: [String]?
    /// The lowercase literal text after a regex's leading `^`
    /// (``Pattern/anchoredPrefix``), kept here so the first lookups'
    /// ``PrefixScan`` reads it without copying the matcher.
    let anchoredPrefix: [UInt8]?

    init(
        id: Int, pattern: String, syntax: Syntax, location: SourceLocation, ownerName: String,
        parameterTypes: [any StepArgument.Type], matcher: StepMatcher, invoke: @escaping Invocation, requiredWords: [String]? = nil,
        isFromLibrary: Bool = false
    ) {
        self.id = id
        self.pattern = pattern
        self.syntax = syntax
        self.location = location
        self.ownerName = ownerName
        self.isFromLibrary = isFromLibrary
        self.parameterTypes = parameterTypes
        self.matcher = matcher
        self.invoke = invoke
        self.requiredWords = requiredWords
        if case .regex(let pattern) = matcher { anchoredPrefix = pattern.anchoredPrefix } else { anchoredPrefix = nil }
    }

    /// The syntax of a pattern.
    public enum Syntax: String, Sendable, Codable {
        /// An NSRegularExpression, searched case-insensitively (Simon's rule).
        case regex
        /// A Cucumber Expression, matched against the whole text after the keyword.
        case expression
    }

    /// Runs the closure in a story's context with the step's inputs.
    typealias Invocation = @Sendable (StoryContext, [StepArgumentInput], ArgumentSite) async throws -> Void
}

/// What a conversion error needs to say where an argument came from.
struct ArgumentSite: Sendable {
    /// The step.
    var step: Step
    /// Where the definition that matched it was registered.
    var definitionLocation: SourceLocation?

    /// The step line as written, made only when an error needs it.
    var line: String { step.line }
    /// Where the step is.
    var location: SourceLocation { step.location }
}
