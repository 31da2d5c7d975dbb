#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads lines from a descriptor.
struct LineReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next line end goes on: the bytes before it
    /// hold none (searched from `start` at each read, a 60 MB request line
    /// read 64 KiB at a time took time growing with its square).
    private var searched = 0
    private var isAtEnd = false
    /// How many bytes the search for line ends has gone through, for tests
    /// (twice the input at most).
    private(set) var searchedBytes = 0

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// What `body` makes of the next whole line's bytes (without its end);
    /// nil at the end of input.
    mutating func nextLine<Value>(_ body: (UnsafeBufferPointer<UInt8>) -> Value) -> Value? {
        while true {
            let from = max(start, searched)
            if let newline = buffer[from...].firstIndex(of: 0x0A) {
                searchedBytes &+= newline + 1 - from
                let value = buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<newline])) }
                start = newline + 1
                searched = start
                return value
            }
            searchedBytes &+= buffer.count - from
            if isAtEnd { return nil }
            searched = buffer.count
            if start > 0 {
                buffer.removeFirst(start)
                searched -= start
                start = 0
            }
            // Read straight onto the end of the buffer.
            let old = buffer.count
            buffer += repeatElement(0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + old, 65_536) }
            buffer.removeSubrange((old + max(0, count))...)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { isAtEnd = true }
        }
    }
}
