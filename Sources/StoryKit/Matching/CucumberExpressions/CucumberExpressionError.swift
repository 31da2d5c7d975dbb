/// An error in a Cucumber expression, a parameter type or a match, with the
/// official message text.
///
/// Errors about a place in an expression render as the official
/// implementations do: the column, the expression, a caret line under the
/// problem, the problem and what to do about it.
///
/// ```
/// This Cucumber Expression has a problem at column 7:
///
/// three () mice
///       ^^
/// An optional must contain some text.
/// If you did not mean to use an optional you can use '\(' to escape the '('
/// ```
public struct CucumberExpressionError: Error, Sendable, CustomStringConvertible {
    /// The full message, exactly as the official implementations word it.
    public var message: String
    /// The 1-based column (in code points) of the problem, when it has one.
    public var column: Int?
    /// What is wrong, in one sentence without the final period, when the
    /// error is about a place in an expression.
    public var problem: String?
    /// What to do about it, when the error is about a place in an expression.
    public var help: String?
    /// The name of the parameter type the expression used but nobody defined.
    ///
    /// A runner can offer a snippet that defines it.
    public var undefinedParameterTypeName: String?

    /// The full message.
    public var description: String { message }

    /// Creates an error with a message that points at nothing.
    init(message: String) {
        self.message = message
    }

    /// Creates an error about a place in an expression.
    init(_ reason: Reason, in expression: String) {
        let problem = reason.problem
        let start = problem.start
        message = """
            This Cucumber Expression has a problem at column \(start + 1):

            \(expression)
            \(Self.pointer(start: start, end: problem.end))
            \(problem.summary).
            \(problem.solution)
            """
        column = start + 1
        self.problem = problem.summary
        help = problem.solution
        if case .undefinedParameterType(_, let name) = reason {
            undefinedParameterTypeName = name
        }
    }

    /// Returns the caret line: `^` under a one-wide place, `^--^` under a
    /// wider one.
    static func pointer(start: Int, end: Int?) -> String {
        var pointer = String(repeating: " ", count: start) + "^"
        if let end, start + 1 < end {
            pointer += String(repeating: "-", count: max(0, end - start - 2)) + "^"
        }
        return pointer
    }
}
