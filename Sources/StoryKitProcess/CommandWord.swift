/// One word of a command line, split as a shell splits it: the text as
/// written, and the values filled in for its `{name}` placeholders after
/// the split (see ``CommandWords/pieces(_:environment:value:)``).
struct CommandWord: Equatable {
    /// A run of the word's text, or the value of one placeholder.
    enum Piece: Equatable {
        case text(String)
        case value(name: String, String)
    }

    /// The word's pieces, in order.
    var pieces: [Piece] = []

    /// Whether a placeholder's value is part of the word.
    var hasValues: Bool {
        pieces.contains { if case .value = $0 { true } else { false } }
    }

    /// The word as its program gets it: text and values one after another.
    static func joined(_ word: CommandWord) -> String {
        word.pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .value(_, let value): value
            }
        }.joined()
    }

    /// Appends text as written.
    mutating func append(_ text: String) {
        if case .text(let last)? = pieces.last {
            pieces[pieces.count - 1] = .text(last + text)
        } else {
            pieces.append(.text(text))
        }
    }

    /// Appends a character as written.
    mutating func append(_ character: Character) {
        append(String(character))
    }
}
