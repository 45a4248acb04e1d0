<?php
/**
 * Removes everything the plugin stored when it is deleted from the Plugins screen.
 *
 * @package SvcBooking
 */

defined( 'ABSPATH' ) || exit;
defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

foreach ( array( 'svc_booking_server_url', 'svc_booking_workspace_slug', 'svc_booking_linked_origin', 'svc_booking_open_in_window', 'svc_booking_host_credential' ) as $svc_booking_option ) {
	delete_option( $svc_booking_option );
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
wp_cache_flush();
