import type { PageMessages } from '../en/pages.ts';

/** The words of svc's server-rendered pages in German: the compiler holds it to every key of the English file. */
export const pages: PageMessages = {
  welcome: {
    title: 'svc: Buchungen, Terminplanung und Zahlungen',
    description: 'Ein selbst betriebener Server für Buchungen, Terminplanung und Zahlungen mit REST-API, Buchungs-Widget und Verwaltung.',
    heading: 'Buchungen, Terminplanung und Zahlungen für Ihre Website',
    lead: 'svc ist ein selbst betriebener Buchungsserver. Kunden buchen Ihre Leistungen über ein Widget, das ein einziges Script-Tag in jede Seite einfügt; Ihr Geschäft führen Sie über REST-API, Webhooks und Verwaltung.',
    tryBooking: 'Eine Buchung ausprobieren',
    tryBookingText: 'Die Buchungsseite des Demo-Salons, mit Beispielleistungen und -zeiten.',
    apiReference: 'API-Referenz',
    apiReferenceText: 'Jede Route der REST-API, mit der OpenAPI-Beschreibung.',
    adminPanel: 'Verwaltung',
    adminPanelText: 'Leistungen, Arbeitszeiten, Buchungen und Einstellungen.',
    addWidget: 'Das Widget in Ihre Website einbauen',
    footer: 'svc liefert diese Seite, die API und das Widget aus einem einzigen Programm.',
  },
  bookingPage: {
    notFoundTitle: 'Buchungsseite nicht gefunden',
    notFoundHeading: 'Diese Buchungsseite gibt es nicht',
    notFoundLead: ({ slug }) => `Es gibt keinen Betrieb namens „${slug}“. Bitte prüfen Sie den Link, den Sie erhalten haben.`,
    home: 'Zur Startseite',
  },
  manage: {
    notFoundTitle: 'Buchung nicht gefunden',
    notFoundHeading: 'Dieser Link öffnet keine Buchung',
    notFoundLead: 'Bitte prüfen Sie den Link in Ihrer E-Mail.',
    title: 'Ihre Buchung',
    cancelled: 'Ihre Buchung ist storniert. Sie erhalten eine E-Mail.',
    rescheduled: 'Ihre Buchung hat einen neuen Termin. Sie erhalten eine E-Mail.',
    service: 'Leistung',
    with: 'Bei',
    date: 'Datum',
    time: 'Uhrzeit',
    status: 'Status',
    statuses: { CONFIRMED: 'Bestätigt', PENDING: 'Ausstehend', CANCELLED: 'Storniert', COMPLETED: 'Abgeschlossen' },
    tooLate: ({ hours, workspace }) =>
      `Buchungen können bis ${hours} Stunden vor Beginn online storniert oder verschoben werden. Bitte wenden Sie sich direkt an ${workspace}.`,
    moveHeading: 'Auf einen anderen Termin verschieben',
    day: 'Tag',
    showTimes: 'Freie Zeiten zeigen',
    noTimes: 'An diesem Tag sind keine Zeiten frei.',
    timesIn: ({ zone }) => `Uhrzeiten in ${zone}.`,
    cancelHeading: 'Buchung stornieren',
    reason: 'Grund (optional)',
    cancelButton: 'Buchung stornieren',
  },
  checkout: {
    open: { title: 'Buchung abschließen', message: 'Bezahlen Sie jetzt, um diese Buchung zu bestätigen.' },
    processing: {
      title: 'Zahlung wird verarbeitet',
      message:
        'Ihre Zahlung wird bestätigt. Diese Seite aktualisiert sich von selbst; Sie können sie auch schließen: Die Buchung ist bestätigt, sobald die Zahlung eingeht.',
    },
    paid: { title: 'Buchung bestätigt', message: 'Vielen Dank: Ihre Zahlung ist eingegangen und Ihre Buchung ist bestätigt.' },
    refund_due: {
      title: 'Zahlung für eine stornierte Buchung erhalten',
      message: 'Diese Buchung war bereits storniert, als die Zahlung einging. Die Zahlung wird erstattet.',
    },
    failed: { title: 'Zahlung fehlgeschlagen', message: 'Die Zahlung ist nicht durchgegangen; die Buchung wurde storniert und ihr Termin freigegeben.' },
    expired: {
      title: 'Bezahlzeit abgelaufen',
      message: 'Die für diese Buchung reservierte Zeit ist abgelaufen, bevor sie bezahlt wurde. Es wurde nichts berechnet; bitte buchen Sie erneut.',
    },
    cancelled: { title: 'Buchung storniert', message: 'Diese Buchung wurde storniert und ihr Termin freigegeben. Es wurde nichts berechnet.' },
    left: {
      title: 'Zahlung nicht abgeschlossen',
      message:
        'Sie haben die Zahlungsseite verlassen, ohne zu bezahlen. Die Buchung ist nicht bestätigt: Unbezahlt wird sie freigegeben, wenn ihre Bezahlzeit endet. Um sie zu behalten, kehren Sie vorher über den Verlauf Ihres Browsers zur Zahlungsseite zurück.',
    },
    service: 'Leistung',
    serviceFallback: 'Buchung',
    date: 'Datum',
    time: 'Uhrzeit',
    amount: 'Betrag',
    heldUntil: ({ time }) => `Ihr Termin ist bis ${time} reserviert.`,
    pay: ({ amount }) => `${amount} bezahlen`,
    cancel: 'Buchung stornieren',
    manage: 'Buchung verwalten',
    testNote: 'Testkasse: Es wird kein echtes Geld bewegt.',
  },
  panel: {
    title: 'svc Verwaltung',
    workspaceTitle: ({ workspace }) => `${workspace}: Verwaltung`,
    notFoundTitle: 'Verwaltung nicht gefunden',
    needsScript: 'Die Verwaltung von svc braucht JavaScript.',
  },
};
