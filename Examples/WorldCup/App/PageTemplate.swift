import Foundation

/// The page's HTML: a template whose table data is filled in on each request, so the first paint
/// shows the table before the WebSocket connects.
struct PageTemplate: Sendable {
    private static let placeholder = "{{INITIAL_SNAPSHOT}}"
    private let template: String

    /// The bundled `page.html`.
    init() throws {
        template = try WorldCupResources.text(named: "page.html")
        guard template.contains(Self.placeholder) else { throw WorldCupError.missingResource("page.html with \(Self.placeholder)") }
    }

    /// The page, with `snapshot` as the JSON inside its `<script type="application/json">` element.
    func render(_ snapshot: ServerMessage) throws -> String {
        template.replacingOccurrences(of: Self.placeholder, with: Self.scriptSafe(try WorldCupJSON.text(snapshot)))
    }

    /// JSON that cannot end the script element it sits in, nor start markup: a team named
    /// `</script><script>…` stays a string. `<`, `>` and `&` occur only inside JSON strings,
    /// where `\u003c` and the like mean the same characters.
    static func scriptSafe(_ json: String) -> String {
        var safe = ""
        safe.reserveCapacity(json.utf8.count)
        for character in json.unicodeScalars {
            switch character {
            case "<": safe += "\\u003c"
            case ">": safe += "\\u003e"
            case "&": safe += "\\u0026"
            case "\u{2028}": safe += "\\u2028"
            case "\u{2029}": safe += "\\u2029"
            default: safe.unicodeScalars.append(character)
            }
        }
        return safe
    }
}
