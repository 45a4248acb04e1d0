<?php
/**
 * Runs when the plugin is deleted from the Plugins screen: on every site of the install (each site of a multisite
 * network keeps its own link), revokes the link on svc when svc answers, then removes everything the plugin stored.
 *
 * @package SvcBooking
 */

defined( 'ABSPATH' ) || exit;
defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

require_once __DIR__ . '/includes/class-svc-booking-options.php';
require_once __DIR__ . '/includes/class-svc-booking-client.php';

/**
 * Uninstalls the plugin from the current site.
 */
function svc_booking_uninstall_site(): void {
	$options = new Svc_Booking_Options();
	if ( $options->is_connected() ) {
		// The DELETE …/panel/origin of Disconnect, so the stored credential stops working on svc. Best effort: an svc
		// that cannot be reached must not stop the uninstall (its panel's Linked sites can remove the link).
		( new Svc_Booking_Client( $options ) )->unlink();
	}

	foreach ( Svc_Booking_Options::all_names() as $name ) {
		delete_option( $name );
	}

	// Per-user notices are transients named svc_booking_notice_<user id>.
	global $wpdb;
	$wpdb->query( // phpcs:ignore WordPress.DB.DirectDatabaseQuery
		$wpdb->prepare(
			"DELETE FROM {$wpdb->options} WHERE option_name LIKE %s OR option_name LIKE %s",
			$wpdb->esc_like( '_transient_svc_booking_' ) . '%',
			$wpdb->esc_like( '_transient_timeout_svc_booking_' ) . '%'
		)
	);
}

if ( is_multisite() ) {
	foreach ( get_sites(
		array(
			'fields' => 'ids',
			'number' => 0,
		)
	) as $svc_booking_site_id ) {
		switch_to_blog( (int) $svc_booking_site_id );
		svc_booking_uninstall_site();
		restore_current_blog();
	}
} else {
	svc_booking_uninstall_site();
}
wp_cache_flush();
