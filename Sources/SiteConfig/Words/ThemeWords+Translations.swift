extension ThemeWords {
    /// The languages marsgen's theme speaks besides English, by primary language subtag:
    /// a site whose `language` is one of them (`fr`, `fr-CA`) gets these words, and
    /// `words:` changes any of them. Every word of ``Key`` is here, each with the English
    /// one's placeholders, and each counted word with a form for each plural category its
    /// language has.
    static let translations: [String: [Key: Given]] = ["fr": french, "de": german, "es": spanish]

    /// The built-in words for `language` (a BCP 47 tag); empty for English and any language
    /// marsgen has no words for.
    static func builtIn(for language: String) -> [Key: Given] {
        let primary = language.lowercased().split(separator: "-").first.map(String.init) ?? ""
        return translations[primary] ?? [:]
    }

    /// Typography: French puts a no-break space inside its quotes and before `:`.
    private static let nbsp = "\u{00A0}"

    private static let french: [Key: Given] = [
        .feed: .text("Fil"), .journal: .text("Journal"), .sols: .text("Sols"), .crew: .text("Équipage"),
        .tags: .text("Étiquettes"), .atom: .text("Atom"), .siteNavigation: .text("Site"), .pageNavigation: .text("Pages"),
        .skipToContent: .text("Aller au contenu"), .latest: .text("Dernières transmissions"),
        .missionLog: .text("Journal de la mission {mission}"), .latestSol: .text("Le dernier sol avec du contenu"),
        .older: .text("Plus anciens"), .newer: .text("Plus récents"), .solTitle: .text("Sol {sol}"),
        .solRange: .text("Sols {first}–{last}"), .archiveTitle: .text("Archives, page {number}, {range}"),
        .archiveHeading: .text("Archives · {range}"), .tagTitle: .text("Étiquette\(nbsp): {tag}"),
        .tagFeedSubtitle: .text("Entrées du journal avec l’étiquette {tag}"),
        .crewFeedSubtitle: .text("Entrées du journal et messages de {name}"), .crewFeed: .text("flux"),
        .journalEntries: .forms([.one: "{count} entrée du journal", .many: "{count} d’entrées du journal", .other: "{count} entrées du journal"]),
        .entries: .forms([.one: "{count} entrée", .many: "{count} d’entrées", .other: "{count} entrées"]),
        .messages: .forms([.one: "{count} message", .many: "{count} de messages", .other: "{count} messages"]),
        .newestFirst: .text("les plus récentes d’abord"), .byTag: .text("par étiquette"), .allTags: .text("toutes les étiquettes"),
        .tagged: .text("avec l’étiquette"), .tagFeed: .text("flux"), .earth: .text("Terre"),
        .emptyFeed: .text("Aucune transmission pour l’instant."), .emptyJournal: .text("Aucune entrée du journal pour l’instant."),
        .emptySols: .text("Aucun sol avec du contenu pour l’instant."), .emptyCrew: .text("Aucun membre d’équipage dans content/crew.yml."),
        .emptyTags: .text("Aucune étiquette pour l’instant."), .solLabel: .text("SOL"), .lmst: .text("LMST"), .by: .text("par"),
        .draft: .text("brouillon"), .contents: .text("Sommaire"), .readingTime: .text("{count} min de lecture"),
        .continueReading: .text("Lire la suite"), .untitledEntry: .text("Sol {sol}, {time} LMST"),
        .messageTitle: .text("{author} sur {channel}, sol {sol} {time}"), .weather: .text("MÉTÉO"),
        .weatherTitle: .text("Météo, sol {sol}\(nbsp): {temperature} °C, {condition}"),
        .weatherText: .text("{temperature} °C, {condition}. Max. {high} °C, min. {low} °C. Lever {sunrise}, coucher {sunset} LMST."),
        .sunrise: .text("LEVER"), .sunset: .text("COUCHER"), .high: .text("MAX."), .low: .text("MIN."),
        .details: .text("Détails"), .detailsNotes: .text("Détails + notes"), .hide: .text("Masquer"),
        .clear: .text("dégagé"), .cloudy: .text("nuageux"), .dustStorm: .text("tempête de poussière"), .windy: .text("venteux"),
        .snow: .text("neige"), .fog: .text("brouillard"), .landed: .text("atterrissage le"),
        .clockNote: .text("sols en temps solaire moyen local (Mars24)"), .builtWith: .text("Créé avec marsgen"),
        .notFound: .text("Signal perdu"), .notFoundCode: .text("ERR 404 · PAS DE PORTEUSE"),
        .notFoundText: .text("Cette page n’est pas dans le journal de mission. Elle a peut-être été déplacée, ou jamais transmise."),
        .backToFeed: .text("Retour au fil"), .moved: .text("Cette entrée a été déplacée\(nbsp):"), .search: .text("Rechercher"),
        .searchResults: .forms([.one: "{count} résultat", .many: "{count} de résultats", .other: "{count} résultats"]),
        .searchNone: .text("Rien dans le journal ne correspond à «\(nbsp){query}\(nbsp)»."),
        .searchNeedsScript: .text("La recherche se fait dans votre navigateur et demande que JavaScript soit activé."),
        .searchUnavailable: .text("L’index de recherche n’a pas pu être chargé. Réessayez plus tard."),
        .searchMore: .text("Plus de résultats"),
    ]

    private static let german: [Key: Given] = [
        .feed: .text("Feed"), .journal: .text("Journal"), .sols: .text("Sols"), .crew: .text("Besatzung"),
        .tags: .text("Schlagwörter"), .atom: .text("Atom"), .siteNavigation: .text("Website"), .pageNavigation: .text("Seiten"),
        .skipToContent: .text("Zum Inhalt springen"), .latest: .text("Neueste Übertragungen"),
        .missionLog: .text("Logbuch der Mission {mission}"), .latestSol: .text("Der neueste Sol mit Inhalt"),
        .older: .text("Älter"), .newer: .text("Neuer"), .solTitle: .text("Sol {sol}"), .solRange: .text("Sols {first}–{last}"),
        .archiveTitle: .text("Archivseite {number}, {range}"), .archiveHeading: .text("Archiv · {range}"),
        .tagTitle: .text("Schlagwort: {tag}"), .tagFeedSubtitle: .text("Journaleinträge mit dem Schlagwort {tag}"),
        .crewFeedSubtitle: .text("Journaleinträge und Nachrichten von {name}"), .crewFeed: .text("Feed"),
        .journalEntries: .forms([.one: "{count} Journaleintrag", .other: "{count} Journaleinträge"]),
        .entries: .forms([.one: "{count} Eintrag", .other: "{count} Einträge"]),
        .messages: .forms([.one: "{count} Nachricht", .other: "{count} Nachrichten"]),
        .newestFirst: .text("neueste zuerst"), .byTag: .text("nach Schlagwort"), .allTags: .text("alle Schlagwörter"),
        .tagged: .text("mit dem Schlagwort"), .tagFeed: .text("Feed"), .earth: .text("Erde"),
        .emptyFeed: .text("Noch keine Übertragungen."), .emptyJournal: .text("Noch keine Journaleinträge."),
        .emptySols: .text("Noch keine Sols mit Inhalt."), .emptyCrew: .text("Keine Besatzung in content/crew.yml eingetragen."),
        .emptyTags: .text("Noch keine Schlagwörter."), .solLabel: .text("SOL"), .lmst: .text("LMST"), .by: .text("von"),
        .draft: .text("Entwurf"), .contents: .text("Inhalt"), .readingTime: .text("{count} Min. Lesezeit"),
        .continueReading: .text("Weiterlesen"), .untitledEntry: .text("Sol {sol}, {time} LMST"),
        .messageTitle: .text("{author} in {channel}, Sol {sol} {time}"), .weather: .text("WETTER"),
        .weatherTitle: .text("Wetter, Sol {sol}: {temperature} °C, {condition}"),
        .weatherText: .text("{temperature} °C, {condition}. Höchstwert {high} °C, Tiefstwert {low} °C. Sonnenaufgang {sunrise}, Sonnenuntergang {sunset} LMST."),
        .sunrise: .text("AUFGANG"), .sunset: .text("UNTERGANG"), .high: .text("MAX."), .low: .text("MIN."),
        .details: .text("Details"), .detailsNotes: .text("Details + Notizen"), .hide: .text("Ausblenden"),
        .clear: .text("klar"), .cloudy: .text("bewölkt"), .dustStorm: .text("Staubsturm"), .windy: .text("windig"),
        .snow: .text("Schnee"), .fog: .text("Nebel"), .landed: .text("gelandet am"),
        .clockNote: .text("Sols in mittlerer lokaler Sonnenzeit (Mars24)"), .builtWith: .text("Erstellt mit marsgen"),
        .notFound: .text("Signal verloren"), .notFoundCode: .text("ERR 404 · KEIN TRÄGER"),
        .notFoundText: .text("Diese Seite steht nicht im Logbuch der Mission. Vielleicht wurde sie verschoben oder nie übertragen."),
        .backToFeed: .text("Zurück zum Feed"), .moved: .text("Dieser Eintrag ist umgezogen:"), .search: .text("Suche"),
        .searchResults: .forms([.one: "{count} Ergebnis", .other: "{count} Ergebnisse"]),
        .searchNone: .text("Nichts im Logbuch passt zu „{query}“."),
        .searchNeedsScript: .text("Die Suche läuft in Ihrem Browser und braucht eingeschaltetes JavaScript."),
        .searchUnavailable: .text("Der Suchindex konnte nicht geladen werden. Bitte später erneut versuchen."),
        .searchMore: .text("Weitere Ergebnisse"),
    ]

    private static let spanish: [Key: Given] = [
        .feed: .text("Novedades"), .journal: .text("Diario"), .sols: .text("Soles"), .crew: .text("Tripulación"),
        .tags: .text("Etiquetas"), .atom: .text("Atom"), .siteNavigation: .text("Sitio"), .pageNavigation: .text("Páginas"),
        .skipToContent: .text("Saltar al contenido"), .latest: .text("Últimas transmisiones"),
        .missionLog: .text("Registro de la misión {mission}"), .latestSol: .text("El último sol con contenido"),
        .older: .text("Más antiguas"), .newer: .text("Más recientes"), .solTitle: .text("Sol {sol}"),
        .solRange: .text("Soles {first}–{last}"), .archiveTitle: .text("Archivo, página {number}, {range}"),
        .archiveHeading: .text("Archivo · {range}"), .tagTitle: .text("Etiqueta: {tag}"),
        .tagFeedSubtitle: .text("Entradas del diario con la etiqueta {tag}"),
        .crewFeedSubtitle: .text("Entradas del diario y mensajes de {name}"), .crewFeed: .text("canal"),
        .journalEntries: .forms([.one: "{count} entrada del diario", .many: "{count} de entradas del diario", .other: "{count} entradas del diario"]),
        .entries: .forms([.one: "{count} entrada", .many: "{count} de entradas", .other: "{count} entradas"]),
        .messages: .forms([.one: "{count} mensaje", .many: "{count} de mensajes", .other: "{count} mensajes"]),
        .newestFirst: .text("las más recientes primero"), .byTag: .text("por etiqueta"), .allTags: .text("todas las etiquetas"),
        .tagged: .text("con la etiqueta"), .tagFeed: .text("canal"), .earth: .text("Tierra"),
        .emptyFeed: .text("Aún no hay transmisiones."), .emptyJournal: .text("Aún no hay entradas en el diario."),
        .emptySols: .text("Aún no hay soles con contenido."), .emptyCrew: .text("No hay tripulación en content/crew.yml."),
        .emptyTags: .text("Aún no hay etiquetas."), .solLabel: .text("SOL"), .lmst: .text("LMST"), .by: .text("por"),
        .draft: .text("borrador"), .contents: .text("Contenido"), .readingTime: .text("{count} min de lectura"),
        .continueReading: .text("Seguir leyendo"), .untitledEntry: .text("Sol {sol}, {time} LMST"),
        .messageTitle: .text("{author} en {channel}, sol {sol} {time}"), .weather: .text("CLIMA"),
        .weatherTitle: .text("Clima, sol {sol}: {temperature} °C, {condition}"),
        .weatherText: .text("{temperature} °C, {condition}. Máxima {high} °C, mínima {low} °C. Amanecer {sunrise}, atardecer {sunset} LMST."),
        .sunrise: .text("AMANECER"), .sunset: .text("ATARDECER"), .high: .text("MÁX."), .low: .text("MÍN."),
        .details: .text("Detalles"), .detailsNotes: .text("Detalles + notas"), .hide: .text("Ocultar"),
        .clear: .text("despejado"), .cloudy: .text("nublado"), .dustStorm: .text("tormenta de polvo"), .windy: .text("ventoso"),
        .snow: .text("nieve"), .fog: .text("niebla"), .landed: .text("aterrizó el"),
        .clockNote: .text("soles en tiempo solar medio local (Mars24)"), .builtWith: .text("Hecho con marsgen"),
        .notFound: .text("Señal perdida"), .notFoundCode: .text("ERR 404 · SIN PORTADORA"),
        .notFoundText: .text("Esta página no está en el registro de la misión. Puede que se haya movido, o que nunca se transmitiera."),
        .backToFeed: .text("Volver a las novedades"), .moved: .text("Esta entrada se ha movido:"), .search: .text("Buscar"),
        .searchResults: .forms([.one: "{count} resultado", .many: "{count} de resultados", .other: "{count} resultados"]),
        .searchNone: .text("Nada en el registro coincide con «{query}»."),
        .searchNeedsScript: .text("La búsqueda se hace en tu navegador y necesita JavaScript activado."),
        .searchUnavailable: .text("No se pudo cargar el índice de búsqueda. Inténtalo más tarde."),
        .searchMore: .text("Más resultados"),
    ]
}
