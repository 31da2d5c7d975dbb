/// A captured argument that does not convert to its parameter's type.
public struct ArgumentConversionError: LocatedError, CustomStringConvertible {
    /// The argument's position, from 1.
    public var position: Int
    /// The captured text, if any.
    public var text: String?
    /// The type the parameter wanted.
    public var typeName: String
    var takesAttachment: Bool
    var site: ArgumentSite
    /// The texts that would convert (an enum's cases), when they are few.
    var validValues: [String]? = nil

    /// Where the step definition whose parameter it is was registered.
    public var location: SourceLocation? { site.definitionLocation }

    public var description: String {
        let step = "of \"\(site.line)\" (\(site.location.fileAndLine))"
        if takesAttachment {
            return "argument \(position) \(step) wants a \(typeName), but the step has none written under it"
        }
        guard let text else {
            return "argument \(position) \(step) is missing: its group took no part in the match; make the parameter Optional"
        }
        let valid = validValues.map { values in
            "; valid values: " + values.map { "\"\($0)\"" }.joined(separator: ", ") + " (any case)"
        } ?? ""
        return "argument \(position) \"\(text)\" \(step) is not \(typeName.withIndefiniteArticle)\(valid)"
    }
}
