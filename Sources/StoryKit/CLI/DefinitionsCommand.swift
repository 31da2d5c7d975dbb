/// `storyrun definitions [--json]`: every step definition (pattern or
/// expression, syntax, Swift location, step class, parameter types) and
/// every parameter type Cucumber Expressions may use, for editors and tools.
enum DefinitionsCommand {
    /// Reads the arguments after `definitions`: `--json`, or `--help`.
    static func parse(_ arguments: ArraySlice<String>) throws(Diagnostic) -> Options.Command {
        if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help }
        if let other = arguments.first(where: { $0 != "--json" }) {
            throw Diagnostic(
                at: nil, problem: "definitions takes no \(other)",
                help: "write `\(Options.executableName) definitions` or `\(Options.executableName) definitions --json`")
        }
        return .definitions(json: arguments.contains("--json"))
    }

    /// Lists the definitions; always exits 0.
    static func run(registry: StepRegistry, parameterTypes: ParameterTypeRegistry, json: Bool, output: (String) -> Void) -> ExitStatus {
        if json {
            output(document(registry: registry, parameterTypes: parameterTypes).text)
            return .success
        }
        for definition in registry.definitions {
            let types = definition.parameterNames.isEmpty ? "" : " (\(definition.parameterNames.joined(separator: ", ")))"
            output("\(definition.location.displayFileAndLine): \(definition.ownerName) \"\(definition.pattern)\" [\(definition.syntax.rawValue)]\(types)")
        }
        output("\(registry.definitions.count) step definition\(registry.definitions.count == 1 ? "" : "s")")
        return .success
    }

    /// The JSON document: `{"definitions": [...], "parameterTypes": [...]}`.
    static func document(registry: StepRegistry, parameterTypes: ParameterTypeRegistry) -> JSONValue {
        let builtIns = Set(ParameterTypeRegistry.builtIns.map(\.name))
        let definitions: [JSONValue] = registry.definitions.map { definition in
            var members: [(String, JSONValue)] = [
                ("id", .int(Int64(definition.id))),
                ("pattern", .string(definition.pattern)),
                ("syntax", .string(definition.syntax.rawValue)),
                ("stepClass", .string(definition.ownerName)),
                ("location", .object([("file", .string(definition.location.file)), ("line", .int(Int64(definition.location.line)))])),
                ("parameterTypes", .array(definition.parameterNames.map { .string($0) })),
            ]
            if case .expression(let expression, _) = definition.matcher {
                members.append(("expressionParameters", .array(expression.parameterTypes.map { .string($0.name) })))
            }
            return .object(members)
        }
        let types: [JSONValue] = parameterTypes.parameterTypes.map { type in
            .object([
                ("name", .string(type.name)),
                ("regexps", .array(type.regexps.map { .string($0) })),
                ("type", .string(type.typeName)),
                ("isBuiltIn", .bool(builtIns.contains(type.name))),
            ])
        }
        return .object([("definitions", .array(definitions)), ("parameterTypes", .array(types))])
    }
}
