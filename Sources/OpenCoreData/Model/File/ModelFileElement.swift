import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One element of a model file's XML (`contents` of an `.xcdatamodel`): its name, attributes and
/// child elements. Text between elements carries nothing in the format Xcode writes, so it is
/// not kept.
struct ModelFileElement {
    var name: String
    var attributes: [String: String]
    var children: [ModelFileElement] = []
    /// The 1-based line the element starts on, for errors.
    var line: Int

    /// Parses an XML document into its root element.
    ///
    /// - Throws: ``ModelError/invalidModelFile`` naming the line when the XML is malformed.
    static func parse(_ data: Data, file: URL) throws(ModelError) -> ModelFileElement {
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        // Model files declare no entities and no DTD; refusing them keeps a hostile file from
        // expanding or fetching anything.
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        guard parsed, let root = builder.root else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "no root element"
            throw ModelError(ModelError.invalidModelFile,
                             "\(file.path) is not well-formed XML (line \(parser.lineNumber)): \(reason)")
        }
        return root
    }
}

/// Builds the element tree while `XMLParser` reads the document.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [ModelFileElement] = []
    private(set) var root: ModelFileElement?

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        stack.append(ModelFileElement(name: elementName, attributes: attributes, line: parser.lineNumber))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName: String?) {
        guard let finished = stack.popLast() else { return }
        if stack.isEmpty {
            root = finished
        } else {
            stack[stack.count - 1].children.append(finished)
        }
    }
}
