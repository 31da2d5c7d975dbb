/// The registrar a step class's ``StepDefinitions/define(_:)`` receives:
/// call it with a pattern and a closure.
///
/// A closure's first parameter is the step class's instance; the others
/// receive the pattern's capture groups in order, converted to their types
/// (see ``StepArgument``). The last parameter may be a ``DataTable`` or
/// ``DocString`` instead, which receives the block written under the step.
public final class StepMap<Steps: StepDefinitions> {
    let builder: RegistryBuilder

    init(builder: RegistryBuilder) {
        self.builder = builder
    }

    /// Registers a regex pattern, searched case-insensitively in the step
    /// line (keyword included) and in the text after the keyword.
    /// - Parameters:
    ///   - pattern: An NSRegularExpression pattern with one capture group per
    ///     parameter after the step class.
    ///   - body: The closure to run for each matching step.
    public func callAsFunction<each Arg: StepArgument>(
        _ pattern: String, file: String = #filePath, line: Int = #line,
        _ body: @escaping @Sendable (Steps, repeat each Arg) async throws -> Void
    ) {
        let location = SourceLocation(file: file, line: line)
        let types = Self.parameterTypes(repeat (each Arg).self)
        let matcher: Pattern
        do {
            matcher = try Pattern(regex: pattern)
        } catch {
            builder.reject(.invalidRegex(pattern: pattern, reason: error.message), at: location)
            return
        }
        let captureCount = types.count - (types.last?.takesAttachment == true ? 1 : 0)
        guard captureCount == matcher.groupCount else {
            builder.reject(
                .groupCountMismatch(pattern: pattern, groups: matcher.groupCount, parameters: captureCount),
                at: location)
            return
        }
        builder.add(
            pattern: pattern, syntax: .regex, location: location, owner: "\(Steps.self)",
            parameterNames: types.map { $0.stepArgumentName }, matcher: matcher
        ) { context, inputs, site in
            let cursor = ArgumentCursor(inputs: inputs, site: site)
            let instance: Steps = context.instance(of: Steps.self)
            let arguments = (repeat try cursor.next((each Arg).self))
            try await body(instance, repeat each arguments)
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
