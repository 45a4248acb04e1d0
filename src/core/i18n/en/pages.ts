/**
 * The words of svc's server-rendered pages in English (the `pages` namespace): the welcome page, the hosted
 * booking page, the customer's manage page, the checkout pages and the admin panel's shell. Every value is
 * plain text; the page kit escapes it where it is written.
 */
export const pages = {
  welcome: {
    title: 'svc: bookings, scheduling and payments',
    description: 'A self-hosted booking, scheduling and payments server with a REST API, a booking widget and an admin panel.',
    heading: 'Bookings, scheduling and payments for your site',
    lead: 'svc is a self-hosted booking server. Customers book your services through a widget that one script tag adds to any page; you run the business through its REST API, webhooks and admin panel.',
    tryBooking: 'Try a booking',
    tryBookingText: "The demo salon's booking page, with sample services and times.",
    apiReference: 'API reference',
    apiReferenceText: 'Every route of the REST API, with the OpenAPI description.',
    adminPanel: 'Admin panel',
    adminPanelText: 'Services, working hours, bookings and settings.',
    addWidget: 'Add the widget to your site',
    footer: 'svc serves this page, the API and the widget from one binary.',
  },
  bookingPage: {
    notFoundTitle: 'Booking page not found',
    notFoundHeading: 'This booking page does not exist',
    notFoundLead: ({ slug }: { slug: string }) => `There is no workspace called “${slug}”. Please check the link you were given.`,
    home: 'Go to the start page',
  },
  manage: {
    notFoundTitle: 'Booking not found',
    notFoundHeading: 'This link does not open a booking',
    notFoundLead: 'Please check the link in your email.',
    title: 'Your booking',
    cancelled: 'Your booking is cancelled.',
    rescheduled: 'Your booking has a new time.',
    mailFollows: 'You will get an email.',
    service: 'Service',
    with: 'With',
    date: 'Date',
    time: 'Time',
    status: 'Status',
    statuses: { CONFIRMED: 'Confirmed', PENDING: 'Pending', CANCELLED: 'Cancelled', COMPLETED: 'Completed' },
    tooLate: ({ hours }: { hours: number }) => `Bookings can be cancelled or moved online until ${hours} hours before the start.`,
    contactDirectly: ({ workspace }: { workspace: string }) => `Please contact ${workspace} directly.`,
    contactBy: ({ workspace }: { workspace: string }) => `To change or cancel it now, contact ${workspace}:`,
    moveHeading: 'Move to another time',
    day: 'Day',
    showTimes: 'Show free times',
    noTimes: 'No free times on this day.',
    timesIn: ({ zone }: { zone: string }) => `Times in ${zone}.`,
    cancelHeading: 'Cancel the booking',
    reason: 'Reason (optional)',
    cancelButton: 'Cancel booking',
    confirmMoveHeading: 'Move your booking?',
    confirmMove: ({ from, to }: { from: string; to: string }) => `From ${from} to ${to}.`,
    moveButton: 'Move booking',
    keepTime: 'Keep the current time',
    confirmCancelHeading: 'Cancel this booking?',
    confirmCancelLead: 'Its time is released for others to book.',
    confirmCancelButton: 'Yes, cancel booking',
    keepBooking: 'Keep my booking',
  },
  checkout: {
    open: { title: 'Complete your booking', message: 'Pay now to confirm this booking.' },
    processing: {
      title: 'Payment processing',
      message:
        'Your payment is being confirmed. This page refreshes by itself; you can also close it: the booking is confirmed as soon as the payment arrives.',
    },
    paid: { title: 'Booking confirmed', message: 'Thank you: your payment was received and your booking is confirmed.' },
    refund_due: {
      title: 'Payment received for a cancelled booking',
      message: 'This booking had already been cancelled when the payment arrived. The payment will be refunded.',
    },
    failed: { title: 'Payment failed', message: 'The payment did not go through, so the booking was cancelled and its time released.' },
    expired: {
      title: 'Checkout expired',
      message: 'The time held for this booking ran out before it was paid. Nothing was charged; please book again.',
    },
    cancelled: { title: 'Booking cancelled', message: 'This booking was cancelled and its time released. Nothing was charged.' },
    left: {
      title: 'Payment not completed',
      message:
        'You left the payment page before paying. The booking is not confirmed: unpaid, it is released when its payment window closes. To keep it, go back to the payment page from your browser history before then.',
    },
    service: 'Service',
    serviceFallback: 'Booking',
    date: 'Date',
    time: 'Time',
    amount: 'Amount',
    heldUntil: ({ time }: { time: string }) => `Your time is held until ${time}.`,
    pay: ({ amount }: { amount: string }) => `Pay ${amount}`,
    cancel: 'Cancel booking',
    manage: 'Manage booking',
    testNote: 'Test checkout: no real payment is taken.',
  },
  panel: {
    title: 'svc admin',
    workspaceTitle: ({ workspace }: { workspace: string }) => `${workspace}: admin`,
    notFoundTitle: 'Admin panel not found',
    needsScript: 'The svc admin panel needs JavaScript.',
  },
};

export type PageMessages = typeof pages;
