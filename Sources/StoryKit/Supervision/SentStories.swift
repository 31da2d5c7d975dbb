/// The sequence numbers of the stories sent to a worker and not yet
/// answered, oldest first. Answers come in the order sent, so taking the
/// oldest is the common case and costs nothing (an array's `remove(at: 0)`
/// would move every other story of a window of hundreds).
struct SentStories: Sequence {
    private var sequences: [UInt64] = []
    private var start = 0

    var count: Int { sequences.count - start }
    var isEmpty: Bool { count == 0 }
    /// The newest.
    var last: UInt64? { isEmpty ? nil : sequences.last }

    /// The newest `count`, oldest first.
    func newest(_ count: Int) -> ArraySlice<UInt64> {
        sequences[Swift.max(start, sequences.count - count)...]
    }

    mutating func append(_ sequence: UInt64) {
        sequences.append(sequence)
    }

    /// Takes a story's sequence number out; false when it was not sent to
    /// this worker (or was answered already).
    mutating func remove(_ sequence: UInt64) -> Bool {
        if start < sequences.count, sequences[start] == sequence {
            start += 1
            if start == sequences.count {
                sequences.removeAll(keepingCapacity: true)
                start = 0
            } else if start >= 1024 {
                sequences.removeFirst(start)
                start = 0
            }
            return true
        }
        guard let index = sequences[start...].firstIndex(of: sequence) else { return false }
        sequences.remove(at: index)
        return true
    }

    func makeIterator() -> ArraySlice<UInt64>.Iterator {
        sequences[start...].makeIterator()
    }
}
