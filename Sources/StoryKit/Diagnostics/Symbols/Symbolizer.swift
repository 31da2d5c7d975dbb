/// Names the function, and the source file and line, of places in one
/// executable, read from its file: its symbol table and DWARF line table.
///
/// The file is opened at the first question, not before, and each place
/// is looked up once (a run whose stories crash at one place reads the
/// line tables once).
final class Symbolizer {
    /// What is known of a place in the executable.
    struct Place: Equatable {
        /// The function's symbol as the file has it (mangled).
        var symbol: String
        /// How far into the function the place is, in bytes.
        var offsetInFunction: UInt64
        /// The source line, when the executable has line tables.
        var line: DWARFLineTable.Line?

        /// The function's name as a user reads it.
        var function: String { SwiftDemangler.shortName(symbol) }
    }

    /// The executable's path.
    let path: String
    private var file: Result<ELFFile, ELFFile.OpenError>?
    /// The places looked up so far, nil for those the file does not know.
    private var known: [UInt64: Place?] = [:]

    /// A symbolizer of the executable at `path`.
    init(path: String) {
        self.path = path
    }

    /// What is known of each place, by its offset from the module's load
    /// base (as stack traces print it); places outside any function are
    /// left out, and all are when the file cannot be read.
    func places(atOffsets offsets: [UInt64]) -> [UInt64: Place] {
        let unknown = offsets.filter { known[$0] == nil }
        if !unknown.isEmpty {
            for (offset, place) in lookUp(unknown) { known[offset] = place }
        }
        return offsets.reduce(into: [:]) { places, offset in places[offset] = known[offset] ?? nil }
    }

    private func lookUp(_ offsets: [UInt64]) -> [UInt64: Place?] {
        if file == nil { file = ELFFile.mapping(path) }
        guard case .success(let elf)? = file else { return Dictionary(offsets.map { ($0, nil) }) { $1 } }
        let addresses = offsets.map(elf.address(atOffset:))
        let functions = elf.functions(containing: addresses)
        let lines = DWARFLineTable(elf)?.lines(of: addresses.filter { functions[$0] != nil }) ?? [:]
        var places: [UInt64: Place?] = [:]
        for (offset, address) in zip(offsets, addresses) {
            places[offset] = functions[address].map {
                Place(symbol: $0.name, offsetInFunction: address - $0.address, line: lines[address])
            }
        }
        return places
    }
}
