<?php
/**
 * Static check of the WordPress plugin's PHP (php scripts/wordpress-plugin-check.php FILE...), with PHP's own
 * tokenizer. Reports, as FILE:LINE: message, and exits 1 when:
 * - a file does not start with `defined( 'ABSPATH' ) || exit;` (after the doc comment);
 * - output (echo, print, printf, vprintf, `<?=`) contains a variable, a call or a constant that is not inside an
 *   escaping call (esc_html, esc_attr, esc_url, …): escape late, at the point of output;
 * - a request superglobal ($_POST, $_GET, $_REQUEST, $_COOKIE, $_SERVER, $_FILES) is read outside isset()/empty()
 *   and outside a sanitising call (sanitize_*, absint, …): sanitise early, where it is read;
 * - an admin-post or AJAX handler's class method that reads $_POST does not check a nonce and a capability.
 */

const SVC_ESCAPERS = array(
	'esc_html', 'esc_attr', 'esc_url', 'esc_js', 'esc_textarea', 'esc_xml', 'esc_html__', 'esc_attr__', 'esc_html_x', 'esc_attr_x',
	'wp_kses', 'wp_kses_post', 'wp_kses_data', 'absint', 'intval', 'floatval', 'number_format_i18n', 'wp_json_encode', 'get_block_wrapper_attributes',
);
const SVC_SANITISERS = array(
	'sanitize_text_field', 'sanitize_textarea_field', 'sanitize_key', 'sanitize_email', 'sanitize_title', 'sanitize_file_name', 'sanitize_user',
	'esc_url_raw', 'absint', 'intval', 'isset', 'empty', 'rest_sanitize_boolean', 'wp_verify_nonce', 'check_admin_referer',
);
const SVC_OUTPUT = array( 'printf', 'vprintf' );
const SVC_SUPERGLOBALS = array( '$_POST', '$_GET', '$_REQUEST', '$_COOKIE', '$_SERVER', '$_FILES' );
const SVC_HARMLESS_CONSTANTS = array( 'true', 'false', 'null', 'PHP_EOL' );

/**
 * Problems in one file.
 *
 * @param string $path File.
 * @return string[]
 */
function svc_check_file( string $path ): array {
	$source   = (string) file_get_contents( $path );
	$problems = array();
	$tokens   = array_values(
		array_filter(
			token_get_all( $source ),
			static fn( $token ) => ! is_array( $token ) || ! in_array( $token[0], array( T_WHITESPACE, T_COMMENT, T_DOC_COMMENT ), true )
		)
	);

	// The guard: the first statement after <?php.
	$head = '';
	foreach ( array_slice( $tokens, 1, 9 ) as $token ) {
		$head .= is_array( $token ) ? $token[1] : $token;
	}
	if ( ! str_starts_with( $head, "defined('ABSPATH')||exit;" ) ) {
		$problems[] = "$path:1: the file must start with defined( 'ABSPATH' ) || exit;";
	}

	// Walk with a stack of the calls whose parentheses we are inside.
	$stack     = array();
	$in_output = null;
	$count     = count( $tokens );
	for ( $i = 0; $i < $count; $i++ ) {
		$token = $tokens[ $i ];
		$text  = is_array( $token ) ? $token[1] : $token;
		$line  = is_array( $token ) ? $token[2] : ( $i > 0 && is_array( $tokens[ $i - 1 ] ) ? $tokens[ $i - 1 ][2] : 0 );
		$next  = $tokens[ $i + 1 ] ?? null;

		if ( is_array( $token ) && in_array( $token[0], array( T_ECHO, T_PRINT, T_OPEN_TAG_WITH_ECHO ), true ) ) {
			$in_output = array( 'depth' => count( $stack ), 'line' => $line );
			continue;
		}
		if ( is_array( $token ) && T_STRING === $token[0] && '(' === $next && in_array( strtolower( $text ), SVC_OUTPUT, true ) && null === $in_output ) {
			$in_output = array( 'depth' => count( $stack ), 'line' => $line );
			$stack[]   = '#output';
			++$i;
			continue;
		}
		if ( '(' === $text ) {
			$prev    = $tokens[ $i - 1 ] ?? null;
			$stack[] = is_array( $prev ) && in_array( $prev[0], array( T_STRING, T_ISSET, T_EMPTY, T_ARRAY ), true ) ? strtolower( $prev[1] ) : '#group';
			continue;
		}
		if ( ')' === $text ) {
			array_pop( $stack );
			continue;
		}
		if ( ';' === $text || ( is_array( $token ) && T_CLOSE_TAG === $token[0] ) ) {
			if ( null !== $in_output && count( $stack ) <= $in_output['depth'] ) {
				$in_output = null;
			}
			continue;
		}

		$escaped   = (bool) array_intersect( $stack, SVC_ESCAPERS );
		$sanitised = (bool) array_intersect( $stack, SVC_SANITISERS );

		if ( is_array( $token ) && T_VARIABLE === $token[0] && in_array( $text, SVC_SUPERGLOBALS, true ) && ! $sanitised ) {
			$problems[] = "$path:$line: $text is read without sanitising (wrap it in sanitize_text_field( wp_unslash( … ) ) or similar)";
		}

		if ( null === $in_output || $escaped ) {
			continue;
		}
		if ( is_array( $token ) && T_STRING === $token[0] && '(' === $next && in_array( strtolower( $text ), SVC_ESCAPERS, true ) ) {
			continue;
		}
		if ( is_array( $token ) && T_VARIABLE === $token[0] ) {
			$problems[] = "$path:$line: $text is output without escaping (esc_html, esc_attr, esc_url, …)";
			continue;
		}
		if ( is_array( $token ) && in_array( $token[0], array( T_STRING, T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED ), true ) && ! in_array( strtolower( $text ), SVC_HARMLESS_CONSTANTS, true ) ) {
			$problems[] = "$path:$line: $text is output without escaping (esc_html, esc_attr, esc_url, …)";
			// Skip the rest of this call: one report per unescaped call.
			if ( '(' === $next || ( is_array( $next ) && T_DOUBLE_COLON === $next[0] ) ) {
				$depth = 0;
				for ( $i++; $i < $count; $i++ ) {
					$skip = is_array( $tokens[ $i ] ) ? $tokens[ $i ][1] : $tokens[ $i ];
					if ( '(' === $skip ) {
						++$depth;
					} elseif ( ')' === $skip && 0 === --$depth ) {
						break;
					}
				}
			}
		}
	}

	// Form handlers: a method that reads $_POST must check a nonce and the capability.
	if ( preg_match_all( '/function\s+(\w+)\s*\([^)]*\)[^{]*\{((?:[^{}]|\{(?2)\})*)\}/s', $source, $methods, PREG_SET_ORDER | PREG_OFFSET_CAPTURE ) ) {
		foreach ( $methods as $method ) {
			$body = $method[2][0];
			if ( ! str_contains( $body, '$_POST' ) ) {
				continue;
			}
			$guarded = str_contains( $body, '$this->guard(' ) || ( preg_match( '/check_admin_referer|wp_verify_nonce|check_ajax_referer/', $body ) && str_contains( $body, 'current_user_can' ) );
			if ( ! $guarded ) {
				$line       = substr_count( substr( $source, 0, $method[0][1] ), "\n" ) + 1;
				$problems[] = "$path:$line: {$method[1][0]}() reads \$_POST without a nonce and capability check";
			}
		}
	}
	if ( str_contains( $source, 'function guard(' ) && ! ( str_contains( $source, 'current_user_can' ) && str_contains( $source, 'check_admin_referer' ) ) ) {
		$problems[] = "$path:1: guard() must check current_user_can and check_admin_referer";
	}

	return $problems;
}

$svc_problems = array();
foreach ( array_slice( $argv, 1 ) as $svc_file ) {
	$svc_problems = array_merge( $svc_problems, svc_check_file( $svc_file ) );
}
foreach ( $svc_problems as $svc_problem ) {
	fwrite( STDERR, $svc_problem . PHP_EOL );
}
exit( $svc_problems ? 1 : 0 );
