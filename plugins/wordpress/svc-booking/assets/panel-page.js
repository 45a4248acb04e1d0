/**
 * Bookings page: mounts svc's panel with svc's host script (window.SvcPanelHost) and answers what the panel
 * asks of WordPress: a logo from the media library, focus mode (no admin menu), the full admin.
 * Configuration comes from the page (window.svcBookingPanel); the host credential never reaches the browser.
 * In window mode the host script puts its own button in the container; the click opens the panel window.
 */
(() => {
  const config = window.svcBookingPanel;
  const __ = window.wp?.i18n ? window.wp.i18n.__ : (text) => text;

  function problem(container, text) {
    const note = document.createElement('p');
    note.className = 'svc-booking-panel-status notice notice-error inline';
    note.setAttribute('role', 'alert');
    note.textContent = text;
    container.replaceChildren(note);
  }

  /** Opens the media library; resolves with the chosen image's URL, or null when closed without a choice. */
  function selectLogo() {
    return new Promise((resolve) => {
      const frame = window.wp.media({
        title: __('Choose a logo', 'svc-booking'),
        library: { type: 'image' },
        button: { text: __('Use as logo', 'svc-booking') },
        multiple: false,
      });
      frame.on('select', () => {
        const attachment = frame.state().get('selection').first();
        resolve(attachment ? attachment.toJSON().url : null);
      });
      // The select button closes the frame before it triggers 'select': decide on a cancel after that.
      frame.on('close', () => {
        setTimeout(() => resolve(null), 0);
      });
      frame.open();
    });
  }

  function focusMode(enabled) {
    document.body.classList.toggle('svc-booking-focus', !!enabled);
  }

  function openAdmin() {
    window.open(config.adminUrl, '_blank', 'noopener');
  }

  function start() {
    const container = document.getElementById('svc-booking-panel');
    if (!config || !container) {
      return;
    }
    container.removeAttribute('aria-busy');
    if (!window.SvcPanelHost || typeof window.SvcPanelHost.mount !== 'function') {
      problem(
        container,
        __(
          'The bookings panel could not be loaded from the svc server. Check that the server address in Settings → svc Booking is reachable from your browser.',
          'svc-booking',
        ),
      );
      return;
    }
    window.SvcPanelHost.mount({
      container: container,
      panelOrigin: config.panelOrigin,
      bootstrapUrl: config.bootstrapUrl,
      bootstrapHeaders: { 'X-WP-Nonce': config.restNonce },
      section: config.section,
      mode: config.mode,
      onSelectLogo: selectLogo,
      onFocusMode: focusMode,
      onOpenAdmin: openAdmin,
    });
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
