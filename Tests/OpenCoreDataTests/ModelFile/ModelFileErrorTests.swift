import Foundation
import OpenCoreData
import Testing

/// What a model file holds that the library does not support, or that is wrong, is a thrown
/// error naming the element, the attribute and the line: never a silent drop.
@Suite struct ModelFileErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var body: String
        var code: CoreDataErrorCode
        var fragments: [String]
        var testDescription: String { name }
    }

    private static func entity(_ inside: String) -> String {
        #"<entity name="Note" representedClassName="Note" syncable="YES">"# + inside + "</entity>"
    }

    static let cases: [Case] = [
        Case(name: "undefined attribute type",
             body: entity(#"<attribute name="scratch" optional="YES" transient="YES" attributeType="Undefined"/>"#),
             code: ModelError.unsupportedFeature, fragments: ["attribute Note.scratch", "Undefined", "line 3"]),
        Case(name: "transformer name on another type",
             body: entity(#"<attribute name="tags" optional="YES" attributeType="Binary" valueTransformerName="TagsTransformer"/>"#),
             code: ModelError.unsupportedFeature, fragments: ["attribute Note.tags", "valueTransformerName=\"TagsTransformer\""]),
        Case(name: "derived flag without an expression",
             body: entity(#"<attribute name="words" optional="YES" attributeType="Integer 64" derived="YES" usesScalarValueType="YES"/>"#),
             code: ModelError.invalidModelFile, fragments: ["attribute Note.words", "derivationExpression"]),
        Case(name: "fetched property",
             body: entity(#"<fetchedProperty name="recent" optional="YES"><fetchRequest name="fetchedPropertyFetchRequest" entity="Note" predicateString="TRUEPREDICATE"/></fetchedProperty>"#),
             code: ModelError.unsupportedFeature, fragments: ["entity Note", "fetched property 'recent'"]),
        Case(name: "length of binary data",
             body: entity(#"<attribute name="blob" optional="YES" attributeType="Binary" minValueString="1"/>"#),
             code: ModelError.unsupportedFeature, fragments: ["attribute Note.blob", "minValueString=\"1\""]),
        Case(name: "range that is not a number",
             body: entity(#"<attribute name="rank" attributeType="Integer 16" minValueString="one" usesScalarValueType="YES"/>"#),
             code: ModelError.invalidModelFile, fragments: ["attribute Note.rank", "minValueString=\"one\""]),
        Case(name: "unknown element",
             body: entity(#"<attribute name="body" attributeType="String"/><compositeAttribute name="size"/>"#),
             code: ModelError.unsupportedFeature, fragments: ["entity Note", "<compositeAttribute>"]),
        Case(name: "spatial index",
             body: entity(#"<attribute name="x" attributeType="Double"/><fetchIndex name="byPlace"><fetchIndexElement property="x" type="RTree" order="ascending"/></fetchIndex>"#),
             code: ModelError.unsupportedFeature, fragments: ["fetch index byPlace", "RTree"]),
        Case(name: "ordered flag that is not a flag",
             body: entity(#"<relationship name="children" optional="YES" toMany="YES" ordered="sometimes" deletionRule="Nullify" destinationEntity="Note"/>"#),
             code: ModelError.invalidModelFile, fragments: ["relationship Note.children", "ordered"]),
        Case(name: "default that does not fit",
             body: entity(#"<attribute name="count" attributeType="Integer 16" defaultValueString="many" usesScalarValueType="YES"/>"#),
             code: ModelError.invalidDefaultValue, fragments: ["attribute Note.count", "\"many\"", "integer16"]),
        Case(name: "unknown delete rule",
             body: entity(#"<relationship name="parent" optional="YES" maxCount="1" deletionRule="Explode" destinationEntity="Note"/>"#),
             code: ModelError.invalidModelFile, fragments: ["relationship Note.parent", "Explode"]),
        Case(name: "unknown parent entity",
             body: #"<entity name="Note" parentEntity="Document"><attribute name="body" attributeType="String"/></entity>"#,
             code: ModelError.invalidInheritance, fragments: ["Note", "parentEntity Document"]),
        Case(name: "inverse on another entity",
             body: entity(#"<relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note" inverseName="x" inverseEntity="Folder"/>"#),
             code: ModelError.inverseMismatch, fragments: ["relationship Note.parent", "Folder"]),
        Case(name: "flag that is not YES or NO",
             body: entity(#"<attribute name="body" optional="maybe" attributeType="String"/>"#),
             code: ModelError.invalidModelFile, fragments: ["attribute Note.body", "optional=\"maybe\""]),
        Case(name: "malformed XML",
             body: entity(#"<attribute name="body" attributeType="String">"#),
             code: ModelError.invalidModelFile, fragments: ["not well-formed XML"]),
    ]

    @Test(arguments: cases)
    func theErrorNamesWhatIsWrong(_ testCase: Case) throws {
        let directory = TemporaryDirectory()
        let url = try ModelFiles.write(testCase.body, in: directory)
        let error = #expect(throws: ModelError.self) { _ = try ManagedObjectModel(contentsOf: url) }
        #expect(error?.code == testCase.code, "\(String(describing: error))")
        for fragment in testCase.fragments {
            #expect(error?.message.contains(fragment) == true, "message lacks '\(fragment)': \(String(describing: error))")
        }
    }

    /// Files that are not there, not models, compiled, or whose current version is unknown.
    @Test func packagesThatCannotBeReadAreRefused() throws {
        let directory = TemporaryDirectory()
        let manager = FileManager.default
        func refusal(_ url: URL) -> String {
            let error = #expect(throws: ModelError.self) { _ = try ManagedObjectModel(contentsOf: url) }
            #expect(error?.code == ModelError.invalidModelFile)
            return error?.message ?? ""
        }
        #expect(refusal(directory.file("Missing.xcdatamodeld")).contains("there is no model at"))

        let compiled = directory.file("Library.momd")
        try manager.createDirectory(at: compiled, withIntermediateDirectories: true)
        #expect(refusal(compiled).contains("momc"))

        let package = try ModelFiles.write(Self.entity(#"<attribute name="body" attributeType="String"/>"#), in: directory, name: "Notes")
        try manager.copyItem(at: package.appendingPathComponent("Notes.xcdatamodel"),
                             to: package.appendingPathComponent("Notes 2.xcdatamodel"))
        #expect(refusal(package).contains("has 2 versions and no .xccurrentversion"))
        try Data("<plist><dict><key>_XCCurrentVersionName</key><string>Notes 3.xcdatamodel</string></dict></plist>".utf8)
            .write(to: package.appendingPathComponent(".xccurrentversion"))
        #expect(refusal(package).contains("names the current version Notes 3.xcdatamodel"))

        let plist = directory.file("Other.xcdatamodel")
        try manager.createDirectory(at: plist, withIntermediateDirectories: true)
        try Data(#"<?xml version="1.0"?><plist version="1.0"><dict/></plist>"#.utf8).write(to: plist.appendingPathComponent("contents"))
        #expect(refusal(plist).contains("its root element is <plist>"))
    }

    /// A class given for an entity must declare what the file declares: a mismatch is an error
    /// when the model loads, not a stopped program at the first access.
    @Test func classesThatDisagreeWithTheFileAreRefused() throws {
        let directory = TemporaryDirectory()
        /// The message of loading an Author entity of `nameType`, whose books are Authors, with LibraryAuthor.
        func refusal(nameType: String, file: String) throws -> String {
            let url = try ModelFiles.write(#"""
                <entity name="Author" representedClassName="LibraryAuthor">
                    <attribute name="born" optional="YES" attributeType="Date"/>
                    <attribute name="name" attributeType="\#(nameType)"/>
                    <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Author"/>
                </entity>
                """#, in: directory, name: file)
            let error = #expect(throws: ModelError.self) {
                _ = try ManagedObjectModel(contentsOf: url, managedObjectClasses: [LibraryAuthor.self])
            }
            #expect(error?.code == ModelError.invalidDeclaration)
            return error?.message ?? ""
        }
        let wrongType = try refusal(nameType: "Integer 32", file: "Typed")
        #expect(wrongType.contains("declares name as string, but the model file says integer32"), "\(wrongType)")
        let wrongDestination = try refusal(nameType: "String", file: "Linked")
        #expect(wrongDestination.contains("declares books with objects of class OpenCoreDataTests.LibraryBook, but its destination Author has class OpenCoreDataTests.LibraryAuthor"),
                "\(wrongDestination)")

        let stray = #expect(throws: ModelError.self) {
            _ = try ManagedObjectModel(contentsOf: try ModelFiles.library,
                                       managedObjectClasses: [LibraryAuthor.self, LibraryBook.self, LibraryItem.self, Team.self])
        }
        #expect(stray?.message.contains("class OpenCoreDataTests.Team was given") == true, "\(String(describing: stray))")
    }
}
