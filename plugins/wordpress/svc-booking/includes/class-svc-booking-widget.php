<?php
/**
 * The booking widget on the front end: shortcode [svc_booking] and block svc-booking/booking.
 *
 * @package SvcBooking
 */

defined( 'ABSPATH' ) || exit;

/**
 * Both the shortcode and the block print svc's widget tag,
 * `<script src="{server}/svc-widget.min.js" data-slug="…" async></script>`, built by one method.
 */
final class Svc_Booking_Widget {

	const POSITIONS = array( 'inline', 'bottom-right', 'bottom-left' );
	const THEMES    = array( 'auto', 'light', 'dark' );

	/**
	 * Settings.
	 *
	 * @var Svc_Booking_Options
	 */
	private $options;

	/**
	 * Constructor.
	 *
	 * @param Svc_Booking_Options $options Settings.
	 */
	public function __construct( Svc_Booking_Options $options ) {
		$this->options = $options;
	}

	/**
	 * Registers the shortcode and the block (hooked to init).
	 */
	public function register(): void {
		add_shortcode( 'svc_booking', array( $this, 'shortcode' ) );
		register_block_type(
			SVC_BOOKING_DIR . 'blocks/booking',
			array( 'render_callback' => array( $this, 'render_block' ) )
		);
		wp_set_script_translations( 'svc-booking-booking-editor-script', 'svc-booking', SVC_BOOKING_DIR . 'languages' );
	}

	/**
	 * [svc_booking slug="" position="inline" theme="auto" service=""].
	 *
	 * @param array|string $atts Shortcode attributes.
	 */
	public function shortcode( $atts ): string {
		$atts = shortcode_atts(
			array(
				'slug'     => '',
				'position' => 'inline',
				'theme'    => 'auto',
				'service'  => '',
			),
			is_array( $atts ) ? $atts : array(),
			'svc_booking'
		);
		return $this->tag( $atts );
	}

	/**
	 * Server rendering of the block.
	 *
	 * @param array $attributes Block attributes (block.json).
	 */
	public function render_block( array $attributes ): string {
		$tag = $this->tag( $attributes );
		if ( '' === $tag ) {
			return '';
		}
		return sprintf( '<div %1$s>%2$s</div>', get_block_wrapper_attributes(), $tag );
	}

	/**
	 * The widget tag, or '' when there is no server or workspace to point it at.
	 *
	 * @param array $attributes Raw attributes: slug, position, theme, service.
	 */
	public function tag( array $attributes ): string {
		$server = $this->options->server_url();
		$slug   = sanitize_key( (string) ( $attributes['slug'] ?? '' ) );
		if ( '' === $slug ) {
			$slug = $this->options->workspace_slug();
		}
		if ( '' === $server || '' === $slug ) {
			return '';
		}
		$position = in_array( $attributes['position'] ?? '', self::POSITIONS, true ) ? $attributes['position'] : 'inline';
		$theme    = in_array( $attributes['theme'] ?? '', self::THEMES, true ) ? $attributes['theme'] : 'auto';
		$service  = sanitize_text_field( (string) ( $attributes['service'] ?? '' ) );

		$data = array(
			'slug'     => $slug,
			'position' => $position,
			'theme'    => $theme,
		);
		if ( '' !== $service ) {
			$data['service'] = $service;
		}
		$html = '<script src="' . esc_url( $server . '/svc-widget.min.js' ) . '"';
		foreach ( $data as $name => $value ) {
			$html .= ' data-' . esc_attr( $name ) . '="' . esc_attr( $value ) . '"';
		}
		return $html . ' async></script>';
	}
}
