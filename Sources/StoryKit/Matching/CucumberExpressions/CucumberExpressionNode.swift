/// A node of the syntax tree of a Cucumber expression, shaped as in the
/// official implementations.
///
/// Text nodes carry a `token` and no children; every other node carries
/// children and no token. Places count code points from 0.
struct CucumberExpressionNode: Hashable, Sendable {
    /// The kinds of node, named as in the official testdata.
    enum Kind: String, Hashable, Sendable {
        /// Literal text, whitespace included.
        case text = "TEXT_NODE"
        /// Text in parentheses that may be left out.
        case optional = "OPTIONAL_NODE"
        /// Alternatives separated by `/`.
        case alternation = "ALTERNATION_NODE"
        /// One alternative of an alternation.
        case alternative = "ALTERNATIVE_NODE"
        /// A parameter in braces; its children spell the parameter type's name.
        case parameter = "PARAMETER_NODE"
        /// The whole expression.
        case expression = "EXPRESSION_NODE"
    }

    /// What the node is.
    var kind: Kind
    /// The node's children; empty for text nodes.
    var nodes: [CucumberExpressionNode]
    /// The text of a text node (unescaped), or `nil` for other nodes.
    var token: String?
    /// The code-point offset where the node starts.
    var start: Int
    /// The code-point offset just past the node.
    var end: Int

    /// Creates a node with children.
    init(_ kind: Kind, _ nodes: [CucumberExpressionNode], start: Int, end: Int) {
        self.kind = kind
        self.nodes = nodes
        self.token = nil
        self.start = start
        self.end = end
    }

    /// Creates a node that holds text.
    init(_ kind: Kind, token: String, start: Int, end: Int) {
        self.kind = kind
        self.nodes = []
        self.token = token
        self.start = start
        self.end = end
    }

    /// The node's text: its token, or its children's text joined.
    var text: String {
        token ?? nodes.map(\.text).joined()
    }
}
