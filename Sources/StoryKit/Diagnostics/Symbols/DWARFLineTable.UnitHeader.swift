extension DWARFLineTable {
    /// The header of one compilation unit's line table: how to read its
    /// program, and (when asked) its directories and files.
    struct UnitHeader {
        /// Where the next unit starts.
        var end: Int
        /// Where the line program starts; ``end`` when it cannot be read
        /// (an unknown version, a broken header), so it runs no rows.
        var programStart: Int
        var version: UInt16 = 0
        var minimumInstructionLength: UInt64 = 1
        var lineBase: Int8 = 0
        var lineRange: UInt64 = 1
        var opcodeBase: UInt8 = 1
        /// How many LEB128 arguments each standard opcode takes, from 1.
        var argumentCounts: [UInt8] = []
        var directories: [String] = []
        var files: [(name: String, directory: UInt64)] = []

        /// Reads the header of the unit at `start`; nil when its length
        /// runs past the section (nothing after it can be trusted).
        init?(_ bytes: UnsafeRawBufferPointer, at start: Int, table: DWARFLineTable, withFiles: Bool) {
            var cursor = ByteCursor(bytes, at: start)
            var length = UInt64(cursor.u32())
            let is64Bit = length == 0xFFFF_FFFF
            if is64Bit { length = cursor.u64() }
            guard !cursor.isBroken, length <= UInt64(bytes.count - cursor.offset) else { return nil }
            end = cursor.offset + Int(length)
            programStart = end
            cursor = ByteCursor(UnsafeRawBufferPointer(rebasing: bytes[..<end]), at: cursor.offset)
            version = cursor.u16()
            guard (2...5).contains(version) else { return }
            if version >= 5 { cursor.skip(2) }  // address size, segment selector size
            let headerLength = is64Bit ? cursor.u64() : UInt64(cursor.u32())
            let program = UInt64(cursor.offset).addingReportingOverflow(headerLength)
            minimumInstructionLength = UInt64(cursor.u8())
            if version >= 4 { cursor.skip(1) }  // maximum operations per instruction
            cursor.skip(1)  // default is_stmt
            lineBase = Int8(bitPattern: cursor.u8())
            lineRange = UInt64(cursor.u8())
            opcodeBase = cursor.u8()
            argumentCounts = (1..<max(opcodeBase, 1)).map { _ in cursor.u8() }
            guard !cursor.isBroken, lineRange > 0, opcodeBase > 0, !program.overflow, program.partialValue <= UInt64(end) else { return }
            if withFiles {
                if version >= 5 {
                    readEntries(&cursor, is64Bit: is64Bit, table: table)
                } else {
                    readNames(&cursor)
                }
            }
            programStart = Int(program.partialValue)
        }

        /// The path of the file with this index (counted from 1 before
        /// version 5, from 0 since); nil for an index the table lacks.
        func path(ofFile index: UInt64) -> String? {
            let position = version >= 5 ? index : index &- 1
            guard position < files.count else { return nil }
            let file = files[Int(position)]
            // Before version 5, directory 0 is the compilation's own, which
            // only .debug_info names: the path stays relative then.
            let directory =
                version >= 5
                ? (file.directory < directories.count ? directories[Int(file.directory)] : "")
                : (file.directory > 0 && file.directory <= directories.count ? directories[Int(file.directory) - 1] : "")
            if file.name.hasPrefix("/") || directory.isEmpty { return file.name }
            return directory.hasSuffix("/") ? directory + file.name : directory + "/" + file.name
        }

        /// Reads the directory and file tables of versions 2 to 4: strings
        /// up to an empty one, each file with three numbers after it.
        private mutating func readNames(_ cursor: inout ByteCursor) {
            while let directory = cursor.cString(), !directory.isEmpty { directories.append(directory) }
            while let name = cursor.cString(), !name.isEmpty {
                let directory = cursor.uleb()
                _ = cursor.uleb()  // modification time
                _ = cursor.uleb()  // length
                files.append((name, directory))
            }
        }

        /// Reads version 5's directory and file tables: each a list of
        /// (content, form) pairs, then the entries in those forms.
        private mutating func readEntries(_ cursor: inout ByteCursor, is64Bit: Bool, table: DWARFLineTable) {
            for isFiles in [false, true] {
                let formats = (0..<cursor.u8()).map { _ in (content: cursor.uleb(), form: cursor.uleb()) }
                let count = cursor.uleb()
                // Every form read takes a byte at least: a count past the
                // bytes left is a broken table, not a long loop.
                guard !formats.isEmpty || count == 0, count <= UInt64(cursor.bytes.count - cursor.offset) else { return }
                for _ in 0..<count where !cursor.isBroken {
                    var name = "", directory: UInt64 = 0
                    for format in formats {
                        guard let value = Self.read(form: format.form, &cursor, is64Bit: is64Bit, table: table) else { return }
                        if format.content == 1, let text = value.text { name = text }  // DW_LNCT_path
                        if format.content == 2 { directory = value.number }  // DW_LNCT_directory_index
                    }
                    if isFiles { files.append((name, directory)) } else { directories.append(name) }
                }
            }
        }

        /// Reads one attribute value of the forms a version 5 line table
        /// uses; nil for another form (the table is then left unread).
        private static func read(
            form: UInt64, _ cursor: inout ByteCursor, is64Bit: Bool, table: DWARFLineTable
        ) -> (text: String?, number: UInt64)? {
            func string(in section: UnsafeRawBufferPointer) -> String? {
                let offset = is64Bit ? cursor.u64() : UInt64(cursor.u32())
                guard offset < UInt64(section.count) else { return nil }
                var strings = ByteCursor(section, at: Int(offset))
                return strings.cString()
            }
            switch form {
            case 0x08: return (cursor.cString(), 0)  // string
            case 0x1F: return (string(in: table.lineStrings), 0)  // line_strp
            case 0x0E: return (string(in: table.strings), 0)  // strp
            case 0x0B: return (nil, UInt64(cursor.u8()))  // data1
            case 0x05: return (nil, UInt64(cursor.u16()))  // data2
            case 0x06: return (nil, UInt64(cursor.u32()))  // data4
            case 0x07: return (nil, cursor.u64())  // data8
            case 0x0F: return (nil, cursor.uleb())  // udata
            case 0x1E:  // data16 (an MD5 sum)
                cursor.skip(16)
                return (nil, 0)
            case 0x09:  // block
                cursor.skip(Int(clamping: cursor.uleb()))
                return (nil, 0)
            default: return nil
            }
        }
    }
}
