/// A player, and the mark that player writes on the board.
public enum Player: String, Sendable, CaseIterable, CustomStringConvertible {
    case x = "X"
    case o = "O"

    /// The other player.
    public var opponent: Player { self == .x ? .o : .x }

    /// The mark: `X` or `O`.
    public var description: String { rawValue }
}

/// Why a move was refused.
public enum MoveError: Error, Equatable, Sendable {
    /// The cell is outside the 3×3 board.
    case offBoard(row: Int, column: Int)
    /// The cell already holds a mark.
    case occupied(row: Int, column: Int, by: Player)
    /// The other player is to move.
    case notYourTurn(next: Player)
    /// The game has a winner or the board is full.
    case gameOver
}

/// A 3×3 tic-tac-toe board: X moves first, the players alternate, three
/// marks in a row, column or diagonal win, and a full board with no line is
/// a draw. Rows and columns are numbered 1 to 3.
public struct Board: Sendable, Equatable {
    /// The number of rows and of columns.
    public static let size = 3

    private var cells: [Player?] = Array(repeating: nil, count: size * size)

    /// The player to move next.
    public private(set) var nextPlayer: Player = .x

    /// Creates an empty board.
    public init() {}

    /// The mark in a cell, or nil for an empty cell or one off the board.
    public subscript(row: Int, column: Int) -> Player? {
        Self.isOnBoard(row: row, column: column) ? cells[Self.index(row: row, column: column)] : nil
    }

    /// Puts the player's mark in a cell and passes the turn to the opponent.
    /// - Throws: ``MoveError`` when the move is refused; the board is then
    ///   unchanged.
    public mutating func play(_ player: Player, row: Int, column: Int) throws(MoveError) {
        guard !isOver else { throw .gameOver }
        guard Self.isOnBoard(row: row, column: column) else { throw .offBoard(row: row, column: column) }
        if let mark = self[row, column] { throw .occupied(row: row, column: column, by: mark) }
        guard player == nextPlayer else { throw .notYourTurn(next: nextPlayer) }
        cells[Self.index(row: row, column: column)] = player
        nextPlayer = player.opponent
    }

    /// The player with three marks in a line, if any.
    public var winner: Player? {
        for line in Self.lines {
            if let first = cells[line[0]], line.allSatisfy({ cells[$0] == first }) { return first }
        }
        return nil
    }

    /// Whether the board is full and nobody has won.
    public var isDraw: Bool { winner == nil && !cells.contains(nil) }

    /// Whether no more moves can be played.
    public var isOver: Bool { winner != nil || !cells.contains(nil) }

    private static func isOnBoard(row: Int, column: Int) -> Bool {
        (1...size).contains(row) && (1...size).contains(column)
    }

    private static func index(row: Int, column: Int) -> Int {
        (row - 1) * size + (column - 1)
    }

    /// The rows, the columns and the two diagonals, as cell indices.
    private static let lines: [[Int]] = {
        let range = 0..<size
        let rows = range.map { row in range.map { row * size + $0 } }
        let columns = range.map { column in range.map { $0 * size + column } }
        let diagonals = [range.map { $0 * size + $0 }, range.map { $0 * size + (size - 1 - $0) }]
        return rows + columns + diagonals
    }()
}
