package import Foundation

/// How stores keep the order of an ordered to-many relationship: the destinations' primary keys,
/// in order, as one value beside the owner's row (a `BLOB` column named `_<relationship>_order`
/// in SQL stores), written whole whenever the owner's relationship changes.
///
/// The links (a foreign key or a join table) stay the truth about what the relationship holds;
/// the order only arranges them. A destination the order does not list (linked by a batch insert
/// or another program) comes after those it lists, by key; a key of an object no longer linked is
/// passed over. So no write that bypasses the order can lose or invent a member.
package enum StoredRelationshipOrder {
    /// The keys as 8-byte little-endian integers.
    package static func encode(_ destinations: [ManagedObjectID]) -> Data {
        var data = Data(capacity: destinations.count * 8)
        for id in destinations {
            withUnsafeBytes(of: id.key.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// The keys a value written by ``encode(_:)`` holds; a truncated last key is passed over.
    package static func decode(_ data: Data) -> [Int64] {
        var keys: [Int64] = []
        keys.reserveCapacity(data.count / 8)
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset + 8 <= bytes.count {
                keys.append(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self)))
                offset += 8
            }
        }
        return keys
    }

    /// `members` in the stored order, then the members it does not list, by key.
    package static func arrange(_ members: [ManagedObjectID], by order: [Int64]) -> [ManagedObjectID] {
        guard !order.isEmpty else { return members.sorted { $0.key < $1.key } }
        var position: [Int64: Int] = [:]
        position.reserveCapacity(order.count)
        for (index, key) in order.enumerated() where position[key] == nil { position[key] = index }
        return members.sorted { left, right in
            switch (position[left.key], position[right.key]) {
            case let (leftPosition?, rightPosition?): leftPosition < rightPosition
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): left.key < right.key
            }
        }
    }
}
