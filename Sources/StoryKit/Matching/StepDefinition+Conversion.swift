extension StepDefinition {
    /// Converts a match's inputs to the closure's parameter types, as a run
    /// would before calling the closure, without calling it: for tools that
    /// check steps (the language server). Only the parameter types'
    /// conversions run.
    /// - Parameters:
    ///   - inputs: The match's inputs.
    ///   - step: The step, for the error's message.
    /// - Returns: The converted values in order, or the first argument that
    ///   does not convert.
    func convertedArguments(_ inputs: [StepArgumentInput], step: Step) -> Result<[Any], ArgumentConversionError> {
        var cursor = ArgumentCursor(inputs: inputs, site: ArgumentSite(step: step, definitionLocation: location))
        var values: [Any] = []
        for type in parameterTypes {
            do {
                values.append(try Self.next(type, from: &cursor))
            } catch let error as ArgumentConversionError {
                return .failure(error)
            } catch {
                continue
            }
        }
        return .success(values)
    }

    private static func next<T: StepArgument>(_ type: T.Type, from cursor: inout ArgumentCursor) throws -> Any {
        try cursor.next(type)
    }
}
