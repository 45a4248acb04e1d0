<?php
/**
 * Admin notices that survive the redirect after a form post.
 *
 * @package SvcBooking
 */

defined( 'ABSPATH' ) || exit;

/**
 * Keeps one notice per user in a short-lived transient and shows it on the next admin page.
 */
final class Svc_Booking_Notices {

	/** Transient name prefix; the user id follows. */
	const TRANSIENT_PREFIX = 'svc_booking_notice_';

	/**
	 * Queues a notice for the current user.
	 *
	 * @param string $type    'success', 'error', 'warning' or 'info'.
	 * @param string $message Plain text.
	 */
	public function add( string $type, string $message ): void {
		set_transient(
			self::TRANSIENT_PREFIX . get_current_user_id(),
			array(
				'type'    => $type,
				'message' => $message,
			),
			5 * MINUTE_IN_SECONDS
		);
	}

	/**
	 * Prints and forgets the current user's notice (hooked to admin_notices).
	 */
	public function render(): void {
		$key    = self::TRANSIENT_PREFIX . get_current_user_id();
		$notice = get_transient( $key );
		if ( ! is_array( $notice ) || empty( $notice['message'] ) ) {
			return;
		}
		delete_transient( $key );
		$type = in_array( $notice['type'], array( 'success', 'error', 'warning', 'info' ), true ) ? $notice['type'] : 'info';
		printf(
			'<div class="notice notice-%1$s is-dismissible svc-booking-notice"><p>%2$s</p></div>',
			esc_attr( $type ),
			esc_html( $notice['message'] )
		);
	}
}
