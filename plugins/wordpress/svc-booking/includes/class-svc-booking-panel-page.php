<?php
/**
 * The Bookings page in wp-admin: svc's panel, mounted with svc's host script.
 *
 * @package SvcBooking
 */

defined( 'ABSPATH' ) || exit;

/**
 * Adds the "Bookings" menu and loads {server}/svc-panel-host.js with the page's own script, which mounts the
 * panel (an iframe, or svc's button opening a window when the site asks for that) and answers the panel's requests:
 * the media library for a logo, focus mode, the full admin.
 */
final class Svc_Booking_Panel_Page {

	const SLUG = 'svc-booking-panel';

	/**
	 * Settings.
	 *
	 * @var Svc_Booking_Options
	 */
	private $options;

	/**
	 * The admin page hook suffix, known after add_page.
	 *
	 * @var string
	 */
	private $hook = '';

	/**
	 * Constructor.
	 *
	 * @param Svc_Booking_Options $options Settings.
	 */
	public function __construct( Svc_Booking_Options $options ) {
		$this->options = $options;
	}

	/**
	 * The page's address.
	 */
	public static function url(): string {
		return admin_url( 'admin.php?page=' . self::SLUG );
	}

	/**
	 * Adds the top-level "Bookings" menu (manage_options only).
	 */
	public function add_page(): void {
		$this->hook = (string) add_menu_page(
			__( 'Bookings', 'svc-booking' ),
			__( 'Bookings', 'svc-booking' ),
			'manage_options',
			self::SLUG,
			array( $this, 'render' ),
			'dashicons-calendar-alt',
			26
		);
	}

	/**
	 * Loads the host script, the media library and the page script on this page only.
	 *
	 * @param string $hook_suffix Current admin page.
	 */
	public function enqueue( string $hook_suffix ): void {
		if ( '' === $this->hook || $hook_suffix !== $this->hook || ! $this->options->is_connected() ) {
			return;
		}
		$server = $this->options->server_url();
		// svc serves its own host script: it must match the panel the same server serves, so it is not bundled.
		wp_enqueue_script( 'svc-booking-panel-host', $server . '/svc-panel-host.js', array(), null, true ); // phpcs:ignore WordPress.WP.EnqueuedResourceParameters.MissingVersion
		wp_enqueue_media();
		wp_enqueue_style( 'svc-booking-panel', SVC_BOOKING_URL . 'assets/panel-page.css', array(), SVC_BOOKING_VERSION );
		wp_enqueue_script( 'svc-booking-panel', SVC_BOOKING_URL . 'assets/panel-page.js', array( 'svc-booking-panel-host', 'wp-i18n' ), SVC_BOOKING_VERSION, true );
		wp_set_script_translations( 'svc-booking-panel', 'svc-booking', SVC_BOOKING_DIR . 'languages' );

		$section = isset( $_GET['section'] ) ? sanitize_key( wp_unslash( $_GET['section'] ) ) : 'dashboard'; // phpcs:ignore WordPress.Security.NonceVerification.Recommended -- navigation only
		$config  = array(
			'panelOrigin'  => $this->origin_of( $server ),
			// svc's standalone admin with the workspace prefilled in its sign-in (only the slug: no secret in the address).
			'adminUrl'     => esc_url_raw( add_query_arg( 'workspace', rawurlencode( $this->options->workspace_slug() ), $server . '/admin' ) ),
			'bootstrapUrl' => rest_url( Svc_Booking_Rest::NAMESPACE . Svc_Booking_Rest::BOOTSTRAP ),
			'restNonce'    => wp_create_nonce( 'wp_rest' ),
			'section'      => '' === $section ? 'dashboard' : $section,
			'mode'         => $this->options->open_in_window() ? 'window' : 'iframe',
		);
		wp_add_inline_script( 'svc-booking-panel', 'window.svcBookingPanel = ' . wp_json_encode( $config ) . ';', 'before' );
	}

	/**
	 * Prints the page: the container the host script fills, or a button in window mode.
	 */
	public function render(): void {
		if ( ! current_user_can( 'manage_options' ) ) {
			return;
		}
		?>
		<div class="wrap svc-booking-panel-wrap">
			<h1 class="wp-heading-inline"><?php esc_html_e( 'Bookings', 'svc-booking' ); ?></h1>
			<?php if ( ! $this->options->is_connected() ) : ?>
				<div class="notice notice-warning inline"><p>
					<?php
					printf(
						/* translators: %s: link to the settings page */
						esc_html__( 'This site is not connected to svc yet. Connect it under %s.', 'svc-booking' ),
						'<a href="' . esc_url( Svc_Booking_Settings_Page::url() ) . '">' . esc_html__( 'Settings → svc Booking', 'svc-booking' ) . '</a>'
					);
					?>
				</p></div>
			<?php else : ?>
				<?php if ( $this->options->open_in_window() ) : ?>
					<p><?php esc_html_e( 'The panel opens in its own window.', 'svc-booking' ); ?></p>
				<?php endif; ?>
				<div id="svc-booking-panel" class="svc-booking-panel" aria-busy="true">
					<p class="svc-booking-panel-status" role="status" aria-live="polite"><?php esc_html_e( 'Loading the bookings panel…', 'svc-booking' ); ?></p>
				</div>
			<?php endif; ?>
		</div>
		<?php
	}

	/**
	 * Scheme, host and port of the server address: the origin the panel's messages come from.
	 *
	 * @param string $url Server address.
	 */
	private function origin_of( string $url ): string {
		$parts = wp_parse_url( $url );
		return strtolower( ( $parts['scheme'] ?? 'https' ) . '://' . ( $parts['host'] ?? '' ) ) . ( empty( $parts['port'] ) ? '' : ':' . (int) $parts['port'] );
	}
}
