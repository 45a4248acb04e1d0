<?php
/**
 * Settings → svc Booking: connect, disconnect, display options.
 *
 * @package SvcBooking
 */

defined( 'ABSPATH' ) || exit;

/**
 * The settings page and the three form actions it posts to admin-post.php. Every action checks
 * manage_options and its own nonce before it reads anything else.
 */
final class Svc_Booking_Settings_Page {

	const SLUG = 'svc-booking';

	/**
	 * Settings.
	 *
	 * @var Svc_Booking_Options
	 */
	private $options;

	/**
	 * svc calls.
	 *
	 * @var Svc_Booking_Client
	 */
	private $client;

	/**
	 * Notices across the redirect.
	 *
	 * @var Svc_Booking_Notices
	 */
	private $notices;

	/**
	 * Constructor.
	 *
	 * @param Svc_Booking_Options $options Settings.
	 * @param Svc_Booking_Client  $client  svc calls.
	 * @param Svc_Booking_Notices $notices Notices.
	 */
	public function __construct( Svc_Booking_Options $options, Svc_Booking_Client $client, Svc_Booking_Notices $notices ) {
		$this->options = $options;
		$this->client  = $client;
		$this->notices = $notices;
	}

	/**
	 * Adds Settings → svc Booking.
	 */
	public function add_page(): void {
		add_options_page(
			__( 'svc Booking', 'svc-booking' ),
			__( 'svc Booking', 'svc-booking' ),
			'manage_options',
			self::SLUG,
			array( $this, 'render' )
		);
	}

	/**
	 * A "Settings" link on the Plugins screen.
	 *
	 * @param string[] $links Existing links.
	 * @return string[]
	 */
	public function action_links( array $links ): array {
		array_unshift(
			$links,
			sprintf( '<a href="%1$s">%2$s</a>', esc_url( self::url() ), esc_html__( 'Settings', 'svc-booking' ) )
		);
		return $links;
	}

	/**
	 * The settings page's address.
	 */
	public static function url(): string {
		return admin_url( 'options-general.php?page=' . self::SLUG );
	}

	/**
	 * Prints the page.
	 */
	public function render(): void {
		if ( ! current_user_can( 'manage_options' ) ) {
			return;
		}
		$server_url = $this->options->server_url();
		$slug       = $this->options->workspace_slug();
		// After a failed Connect the form shows what was typed, passed back in the page's address: it is not stored.
		// phpcs:disable WordPress.Security.NonceVerification.Recommended -- only shown in the form again
		$form_server_url = isset( $_GET['svc_booking_server_url'] ) ? sanitize_text_field( wp_unslash( $_GET['svc_booking_server_url'] ) ) : $server_url;
		$form_slug       = isset( $_GET['svc_booking_workspace_slug'] ) ? sanitize_key( wp_unslash( $_GET['svc_booking_workspace_slug'] ) ) : $slug;
		// phpcs:enable WordPress.Security.NonceVerification.Recommended
		?>
		<div class="wrap svc-booking-settings">
			<h1><?php esc_html_e( 'svc Booking', 'svc-booking' ); ?></h1>

			<?php if ( $this->options->is_connected() ) : ?>
				<h2><?php esc_html_e( 'Connection', 'svc-booking' ); ?></h2>
				<p class="svc-booking-status">
					<?php
					printf(
						/* translators: 1: workspace slug, 2: svc server address, 3: this site's origin */
						esc_html__( 'Connected to the workspace %1$s on %2$s as %3$s.', 'svc-booking' ),
						'<strong>' . esc_html( $slug ) . '</strong>',
						'<code>' . esc_html( $server_url ) . '</code>',
						'<code>' . esc_html( $this->options->linked_origin() ) . '</code>'
					);
					?>
				</p>
				<p>
					<?php
					printf(
						/* translators: %s: link to the Bookings page */
						esc_html__( 'Manage bookings under %s. Put the booking widget on a page with the "svc Booking" block or the [svc_booking] shortcode.', 'svc-booking' ),
						'<a href="' . esc_url( Svc_Booking_Panel_Page::url() ) . '">' . esc_html__( 'Bookings', 'svc-booking' ) . '</a>'
					);
					?>
				</p>
				<form method="post" action="<?php echo esc_url( admin_url( 'admin-post.php' ) ); ?>">
					<input type="hidden" name="action" value="svc_booking_disconnect" />
					<?php wp_nonce_field( 'svc_booking_disconnect' ); ?>
					<?php submit_button( __( 'Disconnect', 'svc-booking' ), 'secondary', 'submit', false ); ?>
				</form>

				<h2><?php esc_html_e( 'Display', 'svc-booking' ); ?></h2>
				<form method="post" action="<?php echo esc_url( admin_url( 'admin-post.php' ) ); ?>">
					<input type="hidden" name="action" value="svc_booking_display" />
					<?php wp_nonce_field( 'svc_booking_display' ); ?>
					<table class="form-table" role="presentation">
						<tr>
							<th scope="row"><?php esc_html_e( 'Bookings page', 'svc-booking' ); ?></th>
							<td>
								<label for="svc_booking_open_in_window">
									<input type="checkbox" id="svc_booking_open_in_window" name="svc_booking_open_in_window" value="1" <?php checked( $this->options->open_in_window() ); ?> />
									<?php esc_html_e( 'Open the panel in a new window', 'svc-booking' ); ?>
								</label>
								<p class="description"><?php esc_html_e( 'For sites whose policy forbids embedding other sites in wp-admin: the Bookings page then offers a button that opens the panel in its own window.', 'svc-booking' ); ?></p>
							</td>
						</tr>
					</table>
					<?php submit_button( __( 'Save', 'svc-booking' ), 'primary', 'submit', false ); ?>
				</form>
			<?php else : ?>
				<p><?php esc_html_e( 'Connect this site to your svc workspace. Create a pairing code on the server (svc pairing-code create --workspace your-slug) or in the panel settings under Linked sites; it works once, within an hour.', 'svc-booking' ); ?></p>
				<form method="post" action="<?php echo esc_url( admin_url( 'admin-post.php' ) ); ?>">
					<input type="hidden" name="action" value="svc_booking_connect" />
					<?php wp_nonce_field( 'svc_booking_connect' ); ?>
					<table class="form-table" role="presentation">
						<tr>
							<th scope="row"><label for="svc_booking_server_url"><?php esc_html_e( 'Server address', 'svc-booking' ); ?></label></th>
							<td>
								<input type="url" class="regular-text code" id="svc_booking_server_url" name="svc_booking_server_url" value="<?php echo esc_attr( $form_server_url ); ?>" placeholder="https://booking.example.com" required aria-describedby="svc_booking_server_url_help" />
								<p class="description" id="svc_booking_server_url_help"><?php esc_html_e( 'The public address of your svc server.', 'svc-booking' ); ?></p>
							</td>
						</tr>
						<tr>
							<th scope="row"><label for="svc_booking_workspace_slug"><?php esc_html_e( 'Workspace slug', 'svc-booking' ); ?></label></th>
							<td>
								<input type="text" class="regular-text code" id="svc_booking_workspace_slug" name="svc_booking_workspace_slug" value="<?php echo esc_attr( $form_slug ); ?>" required autocomplete="off" spellcheck="false" />
							</td>
						</tr>
						<tr>
							<th scope="row"><label for="svc_booking_pairing_code"><?php esc_html_e( 'Pairing code', 'svc-booking' ); ?></label></th>
							<td>
								<input type="password" class="regular-text code" id="svc_booking_pairing_code" name="svc_booking_pairing_code" value="" required autocomplete="off" spellcheck="false" />
							</td>
						</tr>
					</table>
					<?php submit_button( __( 'Connect', 'svc-booking' ), 'primary', 'submit', false ); ?>
				</form>
			<?php endif; ?>
		</div>
		<?php
	}

	/**
	 * Connect: links home_url()'s origin with the pairing code, then stores the server address, the slug and the
	 * host credential together. Until svc has linked the site nothing is stored: a failed Connect leaves the
	 * previous settings (and the link they hold) as they were, and the form comes back with what was typed.
	 */
	public function handle_connect(): void {
		$this->guard( 'svc_booking_connect' );

		$typed_server = isset( $_POST['svc_booking_server_url'] ) ? sanitize_text_field( wp_unslash( $_POST['svc_booking_server_url'] ) ) : '';
		$server_url   = $this->sanitize_server_url( $typed_server );
		$slug         = isset( $_POST['svc_booking_workspace_slug'] ) ? sanitize_key( wp_unslash( $_POST['svc_booking_workspace_slug'] ) ) : '';
		$pairing_code = isset( $_POST['svc_booking_pairing_code'] ) ? trim( sanitize_text_field( wp_unslash( $_POST['svc_booking_pairing_code'] ) ) ) : '';
		$typed        = array(
			'svc_booking_server_url'     => $typed_server,
			'svc_booking_workspace_slug' => $slug,
		);

		if ( '' === $server_url ) {
			$this->back( 'error', __( 'Enter the server address as http:// or https:// followed by the host, such as https://booking.example.com.', 'svc-booking' ), $typed );
		}
		if ( '' === $slug || '' === $pairing_code ) {
			$this->back( 'error', __( 'Enter the workspace slug and a pairing code.', 'svc-booking' ), $typed );
		}

		$origin = Svc_Booking_Options::site_origin();
		$linked = $this->client->link( $server_url, $slug, $pairing_code, $origin );
		if ( is_wp_error( $linked ) ) {
			$this->back( 'error', $linked->get_error_message(), $typed );
		}
		if ( empty( $linked['hostCredential'] ) || ! is_string( $linked['hostCredential'] ) ) {
			$this->back( 'error', __( 'The server did not return a host credential. Is this the address of an svc server?', 'svc-booking' ), $typed );
		}

		$this->options->save_connection( $server_url, $slug, $linked['hostCredential'], isset( $linked['origin'] ) && is_string( $linked['origin'] ) ? $linked['origin'] : $origin );
		$this->back(
			'success',
			sprintf(
				/* translators: 1: workspace slug, 2: this site's origin */
				__( 'Connected to the workspace %1$s. svc now accepts bookings from %2$s.', 'svc-booking' ),
				$slug,
				$origin
			)
		);
	}

	/**
	 * Disconnect: revokes the link on svc when it can, then forgets the credential in any case.
	 */
	public function handle_disconnect(): void {
		$this->guard( 'svc_booking_disconnect' );

		$revoked = $this->options->is_connected() ? $this->client->unlink() : array();
		$this->options->forget_connection();
		if ( is_wp_error( $revoked ) ) {
			$this->back(
				'warning',
				sprintf(
					/* translators: %s: the error */
					__( 'Disconnected here, but svc could not be told (%s). Remove this site under Linked sites in the panel settings.', 'svc-booking' ),
					$revoked->get_error_message()
				)
			);
		}
		$this->back( 'success', __( 'Disconnected. svc no longer accepts this site\'s credential.', 'svc-booking' ) );
	}

	/**
	 * Saves the display settings.
	 */
	public function handle_display(): void {
		$this->guard( 'svc_booking_display' );
		$this->options->save_open_in_window( isset( $_POST['svc_booking_open_in_window'] ) && '1' === sanitize_text_field( wp_unslash( $_POST['svc_booking_open_in_window'] ) ) );
		$this->back( 'success', __( 'Settings saved.', 'svc-booking' ) );
	}

	/**
	 * Stops the request unless the user may manage options and the form's nonce is valid.
	 *
	 * @param string $action Nonce action.
	 */
	private function guard( string $action ): void {
		if ( ! current_user_can( 'manage_options' ) ) {
			wp_die( esc_html__( 'Sorry, you are not allowed to change the svc Booking settings.', 'svc-booking' ), 403 );
		}
		check_admin_referer( $action );
	}

	/**
	 * Accepts http(s)://host[:port][/path] and returns it without a trailing slash; '' for anything else.
	 *
	 * @param string $raw Typed address.
	 */
	private function sanitize_server_url( string $raw ): string {
		$url   = esc_url_raw( trim( $raw ), array( 'http', 'https' ) );
		$parts = wp_parse_url( $url );
		if ( ! is_array( $parts ) || empty( $parts['host'] ) || ! in_array( $parts['scheme'] ?? '', array( 'http', 'https' ), true ) ) {
			return '';
		}
		return untrailingslashit( strtok( $url, '?#' ) );
	}

	/**
	 * Queues a notice and returns to the settings page.
	 *
	 * @param string   $type    Notice type.
	 * @param string   $message Plain text.
	 * @param string[] $typed   What the Connect form had, shown in it again (query arguments, never stored).
	 * @return never
	 */
	private function back( string $type, string $message, array $typed = array() ): void {
		$this->notices->add( $type, $message );
		wp_safe_redirect( add_query_arg( array_map( 'rawurlencode', array_filter( $typed ) ), self::url() ) );
		exit;
	}
}
