/// A token of a Cucumber expression: a run of text, a run of whitespace or
/// one symbol, with its place in the expression.
///
/// Places count Unicode code points from 0, as the official implementations
/// do, so an emoji is one position wide.
struct CucumberExpressionToken: Hashable, Sendable {
    /// The kinds of token, named as in the official testdata.
    enum Kind: String, Hashable, Sendable {
        /// The start of the expression; always the first token.
        case startOfLine = "START_OF_LINE"
        /// The end of the expression; always the last token.
        case endOfLine = "END_OF_LINE"
        /// A run of whitespace.
        case whiteSpace = "WHITE_SPACE"
        /// `(`, which opens optional text.
        case beginOptional = "BEGIN_OPTIONAL"
        /// `)`, which closes optional text.
        case endOptional = "END_OPTIONAL"
        /// `{`, which opens a parameter.
        case beginParameter = "BEGIN_PARAMETER"
        /// `}`, which closes a parameter.
        case endParameter = "END_PARAMETER"
        /// `/`, which separates alternatives.
        case alternation = "ALTERNATION"
        /// A run of any other characters, escaped ones included.
        case text = "TEXT"

        /// The symbol that stands for a kind of one-character token.
        var symbol: String {
            switch self {
            case .beginOptional: "("
            case .endOptional: ")"
            case .beginParameter: "{"
            case .endParameter: "}"
            case .alternation: "/"
            default: ""
            }
        }

        /// What a kind of opening token is for, as error messages say it.
        var purpose: String {
            switch self {
            case .beginOptional, .endOptional: "optional text"
            case .beginParameter, .endParameter: "a parameter"
            case .alternation: "alternation"
            default: ""
            }
        }

        /// Returns the kind of token an unescaped code point starts.
        static func of(_ scalar: Unicode.Scalar) -> Kind {
            if scalar.properties.isWhitespace { return .whiteSpace }
            switch scalar {
            case "(": return .beginOptional
            case ")": return .endOptional
            case "{": return .beginParameter
            case "}": return .endParameter
            case "/": return .alternation
            default: return .text
            }
        }
    }

    /// The character that escapes the next one.
    static let escapeCharacter: Unicode.Scalar = "\\"

    /// Whether a code point may follow the escape character.
    static func canEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isWhitespace { return true }
        return "\\/(){}".unicodeScalars.contains(scalar)
    }

    /// What the token is.
    var kind: Kind
    /// The token's text, with escape characters removed.
    var text: String
    /// The code-point offset where the token starts.
    var start: Int
    /// The code-point offset just past the token, escape characters included.
    var end: Int
}
