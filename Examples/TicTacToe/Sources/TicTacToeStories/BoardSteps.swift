import StoryKit
import TicTacToe

// The game's Player converts from the X or O a story names: an enum with raw
// values only has to declare the conformance.
extension Player: StepArgument {}

/// Steps that play tic-tac-toe on one board per story.
final class BoardSteps: StepDefinitions {
    /// The board of the story that is running; each story gets a new instance.
    var board = Board()

    required init() {}

    static func define(_ step: StepMap<BoardSteps>) {
        step("^As a player$") { _ in }

        step("^a new game$") { steps in
            steps.board = Board()
        }

        // "X has played …" sets the scene: a refused move fails the step.
        step(#"^(X|O) has played row (\d+), column (\d+)$"#) {
            (steps: BoardSteps, player: Player, row: Int, column: Int) in
            try steps.board.play(player, row: row, column: column)
        }

        // "X plays …" is the action under test: a refused move fails the step.
        step(#"^(X|O) plays row (\d+), column (\d+)$"#) {
            (steps: BoardSteps, player: Player, row: Int, column: Int) in
            try steps.board.play(player, row: row, column: column)
        }

        // "X tries to play …" may be refused: the refusal goes to the story's
        // store, where a later step (of any step class) reads it.
        step(#"^(X|O) tries to play row (-?\d+), column (-?\d+)$"#) {
            (steps: BoardSteps, player: Player, row: Int, column: Int) in
            do {
                try steps.board.play(player, row: row, column: column)
            } catch {
                steps.store["refusal"] = error
            }
        }

        step(#"^the cell at row (\d+), column (\d+) holds (X|O)$"#) {
            (steps: BoardSteps, row: Int, column: Int, player: Player) in
            try expectEqual(steps.board[row, column], player, "row \(row), column \(column)")
        }

        step(#"^the cell at row (\d+), column (\d+) is empty$"#) {
            (steps: BoardSteps, row: Int, column: Int) in
            try expectNil(steps.board[row, column], "row \(row), column \(column)")
        }

        step("^(X|O) plays next$") { (steps: BoardSteps, player: Player) in
            try expectEqual(steps.board.nextPlayer, player, "the player to move")
        }

        step("^the move is refused: the cell is taken by (X|O)$") { (steps: BoardSteps, owner: Player) in
            let refusal = try steps.store.value("refusal", as: MoveError.self)
            guard case .occupied(_, _, let by) = refusal else { try fail("refused as \(refusal), not as occupied") }
            try expectEqual(by, owner, "the mark in the cell")
        }

        step(#"^the move is refused: row (-?\d+), column (-?\d+) is off the board$"#) {
            (steps: BoardSteps, row: Int, column: Int) in
            let refusal = try steps.store.value("refusal", as: MoveError.self)
            try expectEqual(refusal, .offBoard(row: row, column: column))
        }

        step("^the move is refused: it is (X|O)'s turn$") { (steps: BoardSteps, player: Player) in
            let refusal = try steps.store.value("refusal", as: MoveError.self)
            try expectEqual(refusal, .notYourTurn(next: player))
        }

        step("^the move is refused: the game is over$") { steps in
            let refusal = try steps.store.value("refusal", as: MoveError.self)
            try expectEqual(refusal, .gameOver)
        }

        step("^(X|O) wins$") { (steps: BoardSteps, player: Player) in
            try expectEqual(steps.board.winner, player, "the winner")
            try expect(steps.board.isOver, "the game should be over once \(player) wins")
        }

        step("^nobody has won yet$") { steps in
            try expectNil(steps.board.winner, "the winner")
            try expectFalse(steps.board.isOver, "the game should go on")
        }

        step("^the game is a draw$") { steps in
            try expectNil(steps.board.winner, "the winner")
            try expect(steps.board.isDraw, "a full board with no line is a draw")
        }
    }
}
