import type { MailMessages } from '../en/mail.ts';

/** The mails in German (workspace language `de`, `de-AT`, `de-CH`, …). */
export const mail: MailMessages = {
  greeting: (customer) => (customer ? `Hallo ${customer},` : 'Hallo,'),
  labels: {
    service: 'Leistung',
    with: 'Bei',
    date: 'Datum',
    time: 'Uhrzeit',
    amount: 'Zu zahlen',
    payment: 'Zahlung',
    previously: 'Bisher',
    reason: 'Grund',
    dates: 'Termine',
  },
  series: (count) => `Das betrifft ${count} wöchentliche Termine, alle unten aufgeführt.`,
  actions: { manage: 'Absagen oder verschieben', view: 'Buchung ansehen', pay: 'Jetzt bezahlen' },
  manageHint: (hours) => `Bis ${hours} ${hours === 1 ? 'Stunde' : 'Stunden'} vor Beginn können Sie online absagen oder verschieben.`,
  invite: 'Mit der angehängten Kalenderdatei kommt der Termin in Ihren Kalender und bleibt dort aktuell.',
  footer: (workspace) => `Sie erhalten diese E-Mail, weil Sie bei ${workspace} gebucht haben.`,
  confirmed: {
    subject: (v) => `Buchung bestätigt: ${v.service} am ${v.date}`,
    heading: () => 'Ihre Buchung ist bestätigt',
    body: (v) => [`${v.workspace} erwartet Sie am ${v.date}, ${v.time}.`],
  },
  pendingPayment: {
    subject: (v) => `Bitte schließen Sie die Zahlung ab: ${v.service} am ${v.date}`,
    heading: () => 'Ihr Termin ist reserviert',
    body: (v) => [
      `Wir halten ${v.date}, ${v.time} bis ${v.holdUntil} für Sie frei. Ihre Buchung ist bestätigt, sobald die Zahlung über ${v.amount} eingegangen ist.`,
    ],
  },
  pendingConfirmation: {
    subject: (v) => `Buchungsanfrage erhalten: ${v.service} am ${v.date}`,
    heading: () => 'Wir haben Ihre Buchungsanfrage erhalten',
    body: (v) => [`${v.workspace} bestätigt Ihre Buchung für ${v.date}, ${v.time} in Kürze. Sie erhalten dann eine weitere E-Mail.`],
  },
  cancelled: {
    subject: (v) => `Buchung storniert: ${v.service} am ${v.date}`,
    heading: () => 'Ihre Buchung ist storniert',
    body: (v) => [`Ihre Buchung bei ${v.workspace} am ${v.date}, ${v.time} wurde storniert.`],
  },
  rescheduled: {
    subject: (v) => `Buchung verschoben: ${v.service} jetzt am ${v.date}`,
    heading: () => 'Ihre Buchung hat einen neuen Termin',
    body: (v) => [`${v.workspace} erwartet Sie jetzt am ${v.date}, ${v.time}.`],
  },
  reminder: {
    subject: (v) => `Erinnerung: ${v.service} am ${v.date}, ${v.time}`,
    heading: () => 'Bis bald',
    body: (v) => [`Wir erinnern Sie an Ihre Buchung bei ${v.workspace} am ${v.date}, ${v.time}.`],
  },
  waitlistOffer: {
    subject: (v) => `Ein Platz ist frei: ${v.service} am ${v.date}`,
    heading: () => 'Ein Platz ist für Sie frei geworden',
    body: (v) => [
      `Bei ${v.service} am ${v.date}, ${v.time} ist ein Platz frei geworden, und Sie stehen als Erste oder Erster auf der Warteliste.`,
      `Er ist bis ${v.holdUntil} für Sie reserviert. Buchen Sie ihn über den Link unten; danach geht er an die nächste Person.`,
    ],
    action: 'Diesen Platz buchen',
    footer: (workspace) => `Sie erhalten diese E-Mail, weil Sie sich bei ${workspace} auf eine Warteliste gesetzt haben.`,
  },
  refunded: {
    subject: (v) => `Erstattung von ${v.refund}: ${v.service} am ${v.date}`,
    heading: () => 'Ihr Geld ist auf dem Rückweg',
    body: (v) => [
      `${v.workspace} hat Ihnen ${v.refund} für Ihre Buchung am ${v.date}, ${v.time} erstattet. Der Betrag geht auf dem Weg zurück, auf dem Sie bezahlt haben, meist innerhalb weniger Tage.`,
    ],
  },
  owner: {
    greeting: 'Hallo,',
    labels: { customer: 'Kunde', email: 'E-Mail', phone: 'Telefon' },
    waitsForConfirmation: 'Sie wartet auf Ihre Bestätigung.',
    waitsForPayment: 'Sie wartet auf die Zahlung.',
    open: 'Im Admin öffnen',
    footer: (workspace) => `Sie erhalten diese E-Mail, weil diese Adresse für die Buchungsnachrichten von ${workspace} eingetragen ist.`,
    booked: {
      subject: (v) => `Neue Buchung: ${v.service} am ${v.date}`,
      heading: () => 'Neue Buchung',
      body: (v) => [`${v.customer ?? 'Jemand'} hat ${v.service} am ${v.date}, ${v.time} gebucht.`],
    },
    cancelled: {
      subject: (v) => `Vom Kunden storniert: ${v.service} am ${v.date}`,
      heading: () => 'Eine Buchung wurde storniert',
      body: (v) => [`${v.customer ?? 'Jemand'} hat ${v.service} am ${v.date}, ${v.time} storniert. Der Termin ist wieder frei.`],
    },
    rescheduled: {
      subject: (v) => `Vom Kunden verschoben: ${v.service} jetzt am ${v.date}`,
      heading: () => 'Eine Buchung wurde verschoben',
      body: (v) => [`${v.customer ?? 'Jemand'} hat ${v.service} auf ${v.date}, ${v.time} verschoben.`],
    },
  },
  calendarFailed: {
    subject: (v) => `Kalender wird nicht abgeglichen: ${v.calendar} (${v.provider})`,
    heading: 'Ein verbundener Kalender wird nicht abgeglichen',
    body: (v) => [
      `svc konnte den Kalender ${v.calendar} von ${v.provider} nicht lesen. Die bisher bekannten Termine blockieren weiter Zeiten, neue werden aber erst nach dem nächsten erfolgreichen Abgleich berücksichtigt.`,
      'Prüfen Sie die Verbindung im Admin: Nach einem geänderten Passwort oder einer entzogenen Berechtigung braucht es eine neue Verbindung.',
    ],
    labels: { provider: 'Mitarbeiter', calendar: 'Kalender', problem: 'Problem' },
    open: 'Mitarbeiter im Admin öffnen',
  },
};
