extension PhotoMetadata {
    /// What the journal records about a photo chosen by `PhotoSelector`: the listing's
    /// metadata and the URL of the rendition that will be downloaded.
    public init(_ selected: SelectedPhoto) {
        let photo = selected.photo
        self.init(
            id: photo.id,
            name: photo.name,
            photographer: photo.user?.displayName,
            rating: photo.rating,
            description: photo.description,
            sourceURL: selected.imageURL.absoluteString,
            width: photo.width,
            height: photo.height,
            page: selected.page,
            sourceID: photo.sourceID,
            credit: photo.credit
        )
    }
}
