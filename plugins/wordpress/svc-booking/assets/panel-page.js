/**
 * Bookings page: mounts svc's panel with svc's host script (window.SvcPanelHost) and answers what the panel
 * asks of WordPress: a logo from the media library, focus mode (no admin menu), the full admin.
 * Configuration comes from the page (window.svcBookingPanel); the host credential never reaches the browser.
 */
( function () {
	'use strict';
	var config = window.svcBookingPanel;
	var __ = window.wp && window.wp.i18n ? window.wp.i18n.__ : function ( text ) { return text; };

	function status( text ) {
		var node = document.querySelector( '.svc-booking-panel-status' );
		if ( node ) {
			node.textContent = text;
		}
	}

	/** Opens the media library; resolves with the chosen image's URL, or null when closed without a choice. */
	function selectLogo() {
		return new Promise( function ( resolve ) {
			var frame = window.wp.media( {
				title: __( 'Choose a logo', 'svc-booking' ),
				library: { type: 'image' },
				button: { text: __( 'Use as logo', 'svc-booking' ) },
				multiple: false,
			} );
			var chosen = null;
			frame.on( 'select', function () {
				var attachment = frame.state().get( 'selection' ).first();
				chosen = attachment ? attachment.toJSON().url : null;
			} );
			// 'close' also follows 'select': resolve once, there.
			frame.on( 'close', function () {
				resolve( chosen );
			} );
			frame.open();
		} );
	}

	function focusMode( enabled ) {
		document.body.classList.toggle( 'svc-booking-focus', !! enabled );
	}

	function openAdmin() {
		window.open( config.adminUrl, '_blank', 'noopener' );
	}

	function options( container ) {
		return {
			container: container,
			panelOrigin: config.panelOrigin,
			bootstrapUrl: config.bootstrapUrl,
			bootstrapHeaders: { 'X-WP-Nonce': config.restNonce },
			section: config.section,
			onSelectLogo: selectLogo,
			onFocusMode: focusMode,
			onOpenAdmin: openAdmin,
		};
	}

	function start() {
		if ( ! config ) {
			return;
		}
		if ( ! window.SvcPanelHost || typeof window.SvcPanelHost.mount !== 'function' ) {
			status( __( 'The bookings panel could not be loaded from the svc server. Check that the server address in Settings → svc Booking is reachable from your browser.', 'svc-booking' ) );
			return;
		}
		if ( config.mode === 'window' ) {
			var button = document.getElementById( 'svc-booking-open-window' );
			var mounted = null;
			if ( button ) {
				// mount runs inside the click, so the browser lets the new window open.
				button.addEventListener( 'click', function () {
					if ( mounted ) {
						mounted.destroy();
					}
					mounted = window.SvcPanelHost.mount( Object.assign( options( document.body ), { mode: 'window' } ) );
					status( __( 'The panel is open in its own window.', 'svc-booking' ) );
				} );
			}
			return;
		}
		var container = document.getElementById( 'svc-booking-panel' );
		if ( ! container ) {
			return;
		}
		container.textContent = '';
		container.removeAttribute( 'aria-busy' );
		window.SvcPanelHost.mount( options( container ) );
	}

	if ( document.readyState === 'loading' ) {
		document.addEventListener( 'DOMContentLoaded', start );
	} else {
		start();
	}
} )();
