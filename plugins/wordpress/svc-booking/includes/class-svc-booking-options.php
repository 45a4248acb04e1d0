<?php
/**
 * The plugin's stored settings.
 *
 * @package SvcBooking
 */

defined( 'ABSPATH' ) || exit;

/**
 * Reads and writes the plugin's options. The host credential lives in its own option that is never autoloaded,
 * so it is only read when a call to svc needs it, and nothing here hands it to page output.
 */
final class Svc_Booking_Options {

	const SERVER_URL     = 'svc_booking_server_url';
	const WORKSPACE_SLUG = 'svc_booking_workspace_slug';
	const LINKED_ORIGIN  = 'svc_booking_linked_origin';
	const OPEN_IN_WINDOW = 'svc_booking_open_in_window';
	const CREDENTIAL     = 'svc_booking_host_credential';

	/**
	 * Every option the plugin writes (uninstall removes them).
	 *
	 * @return string[]
	 */
	public static function all_names(): array {
		return array( self::SERVER_URL, self::WORKSPACE_SLUG, self::LINKED_ORIGIN, self::OPEN_IN_WINDOW, self::CREDENTIAL );
	}

	/**
	 * The svc server address without a trailing slash, or '' when none is set.
	 */
	public function server_url(): string {
		return untrailingslashit( (string) get_option( self::SERVER_URL, '' ) );
	}

	/**
	 * The connected workspace's slug, or ''.
	 */
	public function workspace_slug(): string {
		return (string) get_option( self::WORKSPACE_SLUG, '' );
	}

	/**
	 * The origin linked on svc, or ''.
	 */
	public function linked_origin(): string {
		return (string) get_option( self::LINKED_ORIGIN, '' );
	}

	/**
	 * Whether the Bookings page opens the panel in its own window instead of an iframe.
	 */
	public function open_in_window(): bool {
		return '1' === get_option( self::OPEN_IN_WINDOW, '0' );
	}

	/**
	 * Connected means: a host credential is stored.
	 */
	public function is_connected(): bool {
		return '' !== $this->credential();
	}

	/**
	 * The host credential (server side only), or ''.
	 */
	public function credential(): string {
		return (string) get_option( self::CREDENTIAL, '' );
	}

	/**
	 * Stores a new link, with the server address and slug it was made with: nothing of the settings form is stored
	 * before svc has linked the site, so a failed Connect leaves the previous link as it was.
	 *
	 * @param string $server_url     Sanitised server address.
	 * @param string $workspace_slug Sanitised workspace slug.
	 * @param string $credential     The host credential svc returned.
	 * @param string $origin         The origin svc linked.
	 */
	public function save_connection( string $server_url, string $workspace_slug, string $credential, string $origin ): void {
		update_option( self::SERVER_URL, $server_url );
		update_option( self::WORKSPACE_SLUG, $workspace_slug );
		update_option( self::LINKED_ORIGIN, $origin );
		// A credential must never be autoloaded: delete first, since update_option keeps an existing row's autoload.
		delete_option( self::CREDENTIAL );
		add_option( self::CREDENTIAL, $credential, '', 'no' );
	}

	/**
	 * Forgets the link (the server address and slug stay, for a reconnect).
	 */
	public function forget_connection(): void {
		delete_option( self::CREDENTIAL );
		delete_option( self::LINKED_ORIGIN );
	}

	/**
	 * Stores the window-mode setting.
	 *
	 * @param bool $enabled Open the panel in a new window.
	 */
	public function save_open_in_window( bool $enabled ): void {
		update_option( self::OPEN_IN_WINDOW, $enabled ? '1' : '0' );
	}

	/**
	 * This site's origin as svc links it: scheme://host[:port] of home_url().
	 */
	public static function site_origin(): string {
		$parts = wp_parse_url( home_url() );
		if ( empty( $parts['scheme'] ) || empty( $parts['host'] ) ) {
			return '';
		}
		$origin = strtolower( $parts['scheme'] ) . '://' . strtolower( $parts['host'] );
		if ( ! empty( $parts['port'] ) ) {
			$origin .= ':' . (int) $parts['port'];
		}
		return $origin;
	}
}
