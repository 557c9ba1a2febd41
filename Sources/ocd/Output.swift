import Foundation

/// Writing to the standard output and error, unbuffered: `watch` prints a line per batch, which
/// a program reading the pipe must get at once.
enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("ocd: " + text + "\n").utf8))
    }

    /// "1 object", "2 objects".
    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// A value as one line of JSON, keys sorted; infinite numbers as strings (JSON has none).
    static func json(_ value: some Encodable) throws(ToolError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .failure("cannot write JSON: \(error)")
        }
    }

    /// Rows as aligned columns, each as wide as its widest cell, after an indent.
    static func table(_ rows: [[String]], indent: String = "") -> [String] {
        var widths: [Int] = []
        for row in rows {
            for (column, cell) in row.enumerated() {
                if column == widths.count { widths.append(0) }
                widths[column] = max(widths[column], cell.count)
            }
        }
        return rows.map { cells in
            var line = indent + cells.enumerated().map { column, cell in
                cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
