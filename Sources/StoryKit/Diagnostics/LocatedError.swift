/// An error that knows where in Swift it was raised, so reports can name
/// both the story line and the Swift line.
public protocol LocatedError: Error {
    /// Where the error was raised, if known.
    var location: SourceLocation? { get }
}
