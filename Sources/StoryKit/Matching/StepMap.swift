/// The registrar a step class's ``StepDefinitions/define(_:)`` receives:
/// call it with a pattern and a closure.
///
/// A closure's first parameter is the step class's instance; the others
/// receive the pattern's capture groups in order, converted to their types
/// (see ``StepArgument``). The last parameter may be a ``DataTable`` or
/// ``DocString`` instead, which receives the block written under the step.
public final class StepMap<Steps: StepDefinitions> {
    let builder: RegistryBuilder
    /// The step class's name, for reports; written out once, not per definition.
    private let ownerName = _typeName(Steps.self, qualified: false)

    init(builder: RegistryBuilder) {
        self.builder = builder
    }

    /// Registers a regex pattern, searched case-insensitively in the step
    /// line (keyword included) and in the text after the keyword.
    /// - Parameters:
    ///   - pattern: An NSRegularExpression pattern with one capture group per
    ///     parameter after the step class.
    ///   - body: The closure to run for each matching step.
    ///   - file: The Swift file that registers it (the default is the caller's), for messages.
    ///   - line: The line that registers it (the default is the caller's), for messages.
    public func callAsFunction<each Arg: StepArgument>(
        _ pattern: String, file: String = #filePath, line: Int = #line,
        _ body: @escaping @Sendable (Steps, repeat each Arg) async throws -> Void
    ) {
        let location = SourceLocation(file: file, line: line)
        let types = Self.parameterTypes(repeat (each Arg).self)
        let pattern = builder.libraryPrefix.map { StepLibraryPrefix.regex(pattern, prefix: $0) } ?? pattern
        let compiled: Pattern
        do {
            compiled = try Pattern(regex: pattern)
        } catch {
            builder.reject(.invalidRegex(pattern: pattern, reason: error.message), at: location)
            return
        }
        let captureCount = types.count - (types.last?.takesAttachment == true ? 1 : 0)
        guard captureCount == compiled.groupCount else {
            builder.reject(
                .groupCountMismatch(pattern: pattern, groups: compiled.groupCount, parameters: captureCount),
                at: location)
            return
        }
        add(pattern, syntax: .regex, matcher: .regex(compiled), location: location, types: types, body)
    }

    /// Registers a Cucumber Expression such as `I have {int} cucumber(s)`,
    /// matched case-sensitively against the whole text after the keyword.
    /// - Parameters:
    ///   - expression: The expression, with one parameter per closure
    ///     parameter after the step class.
    ///   - body: The closure to run for each matching step.
    ///   - file: The Swift file that registers it (the default is the caller's), for messages.
    ///   - line: The line that registers it (the default is the caller's), for messages.
    public func expression<each Arg: StepArgument>(
        _ expression: String, file: String = #filePath, line: Int = #line,
        _ body: @escaping @Sendable (Steps, repeat each Arg) async throws -> Void
    ) {
        let location = SourceLocation(file: file, line: line)
        let types = Self.parameterTypes(repeat (each Arg).self)
        let expression = builder.libraryPrefix.map { StepLibraryPrefix.expression(expression, prefix: $0) } ?? expression
        let compiled: CucumberExpression
        let fallback: Pattern
        do {
            compiled = try CucumberExpression(expression, parameterTypes: builder.parameterTypes)
            fallback = try Pattern(regex: compiled.regexPattern, caseInsensitive: false)
        } catch let error as CucumberExpressionError {
            if let name = error.undefinedParameterTypeName {
                // Left out, not rejected: the run goes on with its steps undefined.
                builder.leaveOut(expression, undefinedType: name, at: location)
                return
            }
            builder.reject(.invalidExpression(pattern: expression, reason: error.message), at: location)
            return
        } catch {
            builder.reject(.invalidExpression(pattern: expression, reason: "\(error)"), at: location)
            return
        }
        let parameterCount = types.count - (types.last?.takesAttachment == true ? 1 : 0)
        guard parameterCount == compiled.parameterTypes.count else {
            builder.reject(
                .expressionParameterMismatch(pattern: expression, parameters: compiled.parameterTypes.count, closure: parameterCount),
                at: location)
            return
        }
        add(expression, syntax: .expression, matcher: .expression(compiled, fallback: fallback), location: location, types: types, body)
    }

    /// Defines a parameter type that the Cucumber Expressions registered
    /// after it may use as `{name}`.
    /// - Parameters:
    ///   - name: The name inside the braces.
    ///   - regexps: The regexes a value matches.
    ///   - transform: Makes the value from the groups' texts.
    ///   - file: The Swift file that registers it (the default is the caller's), for messages.
    ///   - line: The line that registers it (the default is the caller's), for messages.
    public func parameterType<T: Sendable>(
        _ name: String, regexps: [String], file: String = #filePath, line: Int = #line,
        transform: @escaping @Sendable ([String?]) throws -> T
    ) {
        do {
            var type = ParameterType(name: name, regexps: regexps, type: T.self, transform: transform)
            type.location = SourceLocation(file: file, line: line)
            try builder.parameterTypes.define(type)
        } catch {
            builder.reject(.invalidParameterType(name: name, reason: error.message), at: SourceLocation(file: file, line: line))
        }
    }

    private func add<each Arg: StepArgument>(
        _ pattern: String, syntax: StepDefinition.Syntax, matcher: StepMatcher, location: SourceLocation,
        types: [any StepArgument.Type], _ body: @escaping @Sendable (Steps, repeat each Arg) async throws -> Void
    ) {
        builder.add(
            pattern: pattern, syntax: syntax, location: location, owner: ownerName,
            parameterTypes: types, matcher: matcher
        ) { context, inputs, site in
            var cursor = ArgumentCursor(inputs: inputs, site: site)
            let instance: Steps = context.instance(of: Steps.self)
            try await body(instance, repeat try cursor.next((each Arg).self))
        }
    }

    private static func parameterTypes<each Arg: StepArgument>(
        _ type: repeat (each Arg).Type
    ) -> [any StepArgument.Type] {
        var types: [any StepArgument.Type] = []
        for type in repeat each type { types.append(type) }
        return types
    }
}
