import OpenCoreData

extension TeamRow {
    /// The row of a team; read on the team's context queue.
    init(_ team: Team) {
        self.init(id: Self.id(of: team.objectID), name: team.teamName, wins: Int(team.wins))
    }

    /// A team's ID: its object ID's last URI component, `p12` (the store's primary key).
    static func id(of objectID: ManagedObjectID) -> String {
        objectID.uriRepresentation().lastPathComponent
    }
}

extension Table {
    /// What a controller shows now; read on its context's queue.
    init(_ controller: FetchedResultsController<Team>) {
        let sections = (controller.sections ?? []).map { section in
            TableSection(name: section.name, title: section.indexTitle,
                         teams: (section.objects ?? []).compactMap { ($0 as? Team).map(TeamRow.init) })
        }
        self.init(sections: sections, indexTitles: controller.sectionIndexTitles)
    }
}
