import Synchronization

/// Collects step definitions, and the problems with them, while step classes
/// register; then freezes them into a ``StepRegistry``.
final class RegistryBuilder {
    private(set) var definitions: [StepDefinition] = []
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var hooks: [Hook] = []
    /// Cucumber Expressions that name a parameter type nobody defined:
    /// not rejected (the run goes on, as Cucumber's does; the steps they
    /// would match are undefined), each with the warning that says so.
    private(set) var undefinedParameterTypes: [UndefinedParameterType] = []
    /// The parameter types Cucumber Expressions may use: the built-ins and
    /// those the step classes define.
    var parameterTypes = ParameterTypeRegistry()

    /// Why a definition was rejected at registration.
    enum Problem {
        case invalidRegex(pattern: String, reason: String)
        case groupCountMismatch(pattern: String, groups: Int, parameters: Int)
        case invalidExpression(pattern: String, reason: String)
        case invalidTagExpression(String, reason: String)
        case expressionParameterMismatch(pattern: String, parameters: Int, closure: Int)
        case invalidParameterType(name: String, reason: String)
    }

    func addHook(_ hook: Hook) {
        var hook = hook
        hook.definitionsBefore = definitions.count
        hooks.append(hook)
    }

    /// Registers every definition of each step class, in order.
    /// Whether the class registering now is a ``StepLibrary``.
    private var isRegisteringLibrary = false

    func register(_ classes: [any StepDefinitions.Type]) {
        // Registering allocates about a kilobyte a definition, on a thread
        // whose arena would otherwise grow a page at a time.
        MallocArena.reserve(2 << 20)
        for type in classes { register(type) }
    }

    /// The prefix ``StepLibrary/prefixed(_:)`` gave the library
    /// registering now, which its patterns take.
    private(set) var libraryPrefix: String?

    private func register<Steps: StepDefinitions>(_ type: Steps.Type) {
        isRegisteringLibrary = type is any StepLibrary.Type
        libraryPrefix = isRegisteringLibrary ? StepLibraryPrefix.prefix(for: type) : nil
        defer { (isRegisteringLibrary, libraryPrefix) = (false, nil) }
        type.define(StepMap<Steps>(builder: self))
    }

    func add(
        pattern: String, syntax: StepDefinition.Syntax, location: SourceLocation, owner: String,
        parameterTypes: [any StepArgument.Type], matcher: StepMatcher, invoke: @escaping StepDefinition.Invocation
    ) {
        definitions.append(
            StepDefinition(
                id: definitions.count, pattern: pattern, syntax: syntax, location: location,
                ownerName: owner, parameterTypes: parameterTypes, matcher: matcher, invoke: invoke,
                isFromLibrary: isRegisteringLibrary))
    }

    /// Notes an expression left out because it names an undefined parameter type.
    func leaveOut(_ expression: String, undefinedType name: String, at location: SourceLocation) {
        undefinedParameterTypes.append(UndefinedParameterType(name: name, expression: expression, location: location))
    }

    func reject(_ problem: Problem, at location: SourceLocation) {
        diagnostics.append(Diagnostic(at: location, problem: problem.message, help: problem.help))
    }

    /// The registered definitions, frozen.
    func freeze() -> StepRegistry {
        let registry = StepRegistry(
            definitions: definitions, hooks: hooks,
            parameterTypes: Array(parameterTypes.parameterTypes.dropFirst(ParameterTypeRegistry.builtIns.count)),
            matchingRunsUserCode: parameterTypes.parameterTypes.count > ParameterTypeRegistry.builtIns.count,
            undefinedParameterTypes: undefinedParameterTypes)
        Self.lastFrozen.withLock { $0 = registry }
        return registry
    }

    /// The registry frozen last, kept until the next is frozen: a run's
    /// process exits when the run returns, and freeing 1,000 definitions
    /// (their closures, and what those capture) before that cost a
    /// one-story run 0.2 ms.
    private static let lastFrozen = Mutex<StepRegistry?>(nil)
}

/// A Cucumber Expression that names a parameter type nobody defined
/// (Cucumber's `undefinedParameterType` message).
struct UndefinedParameterType: Sendable, Equatable {
    /// The name in braces.
    var name: String
    /// The whole expression.
    var expression: String
    /// Where the expression was registered.
    var location: SourceLocation

    /// The warning a run prints: the place, what is wrong and what to do.
    var diagnostic: Diagnostic {
        Diagnostic(
            .warning, at: location,
            problem: "Cucumber Expression \"\(expression)\" uses {\(name)}, which no parameter type defines: the steps it would match are undefined",
            help: "define it before the expression with step.parameterType(\"\(name)\", regexps: [...]) { ... }, or use a built-in type such as {word} or {string}")
    }
}

extension RegistryBuilder.Problem {
    var message: String {
        switch self {
        case .invalidRegex(let pattern, let reason):
            "step pattern \"\(pattern)\" does not compile: \(reason)"
        case .invalidExpression(let pattern, let reason):
            "Cucumber Expression \"\(pattern)\" is not valid: \(reason)"
        case .expressionParameterMismatch(let pattern, let parameters, let closure):
            "Cucumber Expression \"\(pattern)\" has \(parameters) parameter\(parameters == 1 ? "" : "s") but its closure takes \(closure) argument\(closure == 1 ? "" : "s") after the step class"
        case .invalidParameterType(let name, let reason):
            "parameter type {\(name)} cannot be defined: \(reason)"
        case .invalidTagExpression(let expression, let reason):
            "hook tag expression \"\(expression)\" is not valid: \(reason)"
        case .groupCountMismatch(let pattern, let groups, let parameters):
            "step pattern \"\(pattern)\" has \(groups) capture group\(groups == 1 ? "" : "s") but its closure takes \(parameters) argument\(parameters == 1 ? "" : "s") after the step class"
        }
    }

    var help: String? {
        switch self {
        case .invalidRegex: "fix the regular expression; test it with `\(Options.executableName) match --regex PATTERN TEXT`"
        case .invalidExpression, .invalidTagExpression, .invalidParameterType: nil
        case .expressionParameterMismatch:
            "give the closure one parameter per {parameter} in the expression"
        case .groupCountMismatch:
            "give the closure one parameter per capture group, or make a group non-capturing with (?:…)"
        }
    }
}
