/// The source file and line of machine code addresses, read from an ELF
/// file's DWARF line tables (`.debug_line`, versions 2 to 5).
///
/// Each compilation unit's table is a small program whose rows say "from
/// this address on, the code is from this file and line"; an address
/// belongs to the row before the first row past it, within one sequence.
/// The reader runs every unit's program once for all the addresses asked
/// (a crash's few frames), and reads file names only of the units that
/// hold an answer. A malformed unit ends the reading of that unit (or of
/// the section, when its length cannot be trusted), never the process.
struct DWARFLineTable {
    /// A source line.
    struct Line: Equatable {
        /// The path as the compiler recorded it (absolute from swiftc).
        var file: String
        var line: Int
    }

    let lines: UnsafeRawBufferPointer
    /// `.debug_line_str` and `.debug_str`, where version 5 keeps names.
    var lineStrings = UnsafeRawBufferPointer(start: nil, count: 0)
    var strings = UnsafeRawBufferPointer(start: nil, count: 0)

    /// The table of an ELF file, if it has one.
    init?(_ elf: ELFFile) {
        guard let section = elf.section(named: ".debug_line"), section.bytes.count > 0 else { return nil }
        lines = section.bytes
        lineStrings = elf.section(named: ".debug_line_str")?.bytes ?? lineStrings
        strings = elf.section(named: ".debug_str")?.bytes ?? strings
    }

    /// A table over bytes a test gives.
    init(lines: UnsafeRawBufferPointer) {
        self.lines = lines
    }

    /// The line of each address that a table row covers (with a line
    /// number other than 0, which means "no line"), by address.
    func lines(of addresses: [UInt64]) -> [UInt64: Line] {
        guard !addresses.isEmpty else { return [:] }
        var found: [UInt64: (unit: Int, file: UInt64, line: Int)] = [:]
        var unitStart = 0
        while unitStart < lines.count {
            guard let header = UnitHeader(lines, at: unitStart, table: self, withFiles: false) else { break }
            run(header, wanted: addresses) { address, file, line in
                if found[address] == nil { found[address] = (unitStart, file, line) }
            }
            unitStart = header.end
        }
        var units: [Int: UnitHeader] = [:]
        return found.compactMapValues { place in
            if units[place.unit] == nil { units[place.unit] = UnitHeader(lines, at: place.unit, table: self, withFiles: true) }
            guard let path = units[place.unit]?.path(ofFile: place.file) else { return nil }
            return Line(file: path, line: place.line)
        }
    }

    /// Runs a unit's line program, calling `found` for each wanted
    /// address a row covers with that row's file index and line.
    private func run(_ header: UnitHeader, wanted: [UInt64], found: (UInt64, UInt64, Int) -> Void) {
        var program = ByteCursor(UnsafeRawBufferPointer(rebasing: lines[..<header.end]), at: header.programStart)
        var address: UInt64 = 0, file: UInt64 = 1, line: Int64 = 1
        // The row before, in this sequence: it covers up to the next row's address.
        var previous: (address: UInt64, file: UInt64, line: Int64)?
        // Most rows are nowhere near the few addresses wanted.
        let lowest = wanted.min() ?? 0, highest = wanted.max() ?? 0
        func emitRow() {
            if let row = previous, row.address <= highest, address > lowest, row.line > 0, row.address < address {
                for wanted in wanted where wanted >= row.address && wanted < address { found(wanted, row.file, Int(row.line)) }
            }
            previous = (address, file, line)
        }
        func advance(operations: UInt64) { address &+= operations &* header.minimumInstructionLength }
        let opcodeBase = header.opcodeBase, lineRange = header.lineRange, lineBase = Int64(header.lineBase)
        while !program.isAtEnd {
            let opcode = program.u8()
            if opcode >= opcodeBase {
                let adjusted = UInt64(opcode - opcodeBase)
                advance(operations: adjusted / lineRange)
                line &+= lineBase + Int64(adjusted % lineRange)
                emitRow()
                continue
            }
            switch opcode {
            case 0:  // extended: its length, then its own opcode
                let length = program.uleb()
                let start = program.offset
                guard length <= UInt64(program.bytes.count - start) else { return }
                guard length > 0 else { continue }
                switch program.u8() {
                case 1:  // end_sequence
                    emitRow()
                    previous = nil
                    address = 0
                    file = 1
                    line = 1
                case 2:  // set_address
                    address = length == 5 ? UInt64(program.u32()) : program.u64()
                default: break
                }
                program.seek(to: start + Int(length))
            case 1: emitRow()  // copy
            case 2: advance(operations: program.uleb())
            case 3: line &+= program.sleb()
            case 4: file = program.uleb()
            case 8: advance(operations: UInt64(255 - header.opcodeBase) / header.lineRange)  // const_add_pc
            case 9: address &+= UInt64(program.u16())  // fixed_advance_pc
            default:
                // Others change no row we read: skip their arguments.
                for _ in 0..<header.argumentCounts[Int(opcode) - 1] { _ = program.uleb() }
            }
        }
    }
}
